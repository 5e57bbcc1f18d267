-- Barcodes as GTINs: products are looked up and kept unique by barcode_key, the GTIN-14 of a
-- GTIN-8/12/13/14 or UPC-E (or the code itself for anything else). gtin_key() is the SQL twin
-- of gtinKey() in src/contract/gtin.ts (a test checks they agree); the stored barcode keeps
-- what the user typed or scanned.
CREATE FUNCTION gs1_check_digit_ok(code text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  n integer := length(code);
  total integer := 0;
BEGIN
  IF n < 2 OR code !~ '^[0-9]+$' THEN
    RETURN false;
  END IF;
  -- Weights 3, 1, 3, ... from the digit before the check digit leftwards.
  FOR i IN 1..n - 1 LOOP
    total := total + (ascii(substr(code, n - i, 1)) - 48) * CASE WHEN i % 2 = 1 THEN 3 ELSE 1 END;
  END LOOP;
  RETURN (10 - total % 10) % 10 = ascii(substr(code, n, 1)) - 48;
END $$;--> statement-breakpoint
-- The UPC-A an 8-digit UPC-E stands for (number system 0 or 1, the UPC-A's check digit), else NULL.
CREATE FUNCTION upc_e_to_upc_a(code text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  d text;
  last text;
  body text;
  upc_a text;
BEGIN
  IF code !~ '^[01][0-9]{7}$' THEN
    RETURN NULL;
  END IF;
  d := substr(code, 2, 6);
  last := substr(d, 6, 1);
  body := CASE
    WHEN last IN ('0', '1', '2') THEN substr(d, 1, 2) || last || '0000' || substr(d, 3, 3)
    WHEN last = '3' THEN substr(d, 1, 3) || '00000' || substr(d, 4, 2)
    WHEN last = '4' THEN substr(d, 1, 4) || '00000' || substr(d, 5, 1)
    ELSE substr(d, 1, 5) || '0000' || last
  END;
  upc_a := substr(code, 1, 1) || body || substr(code, 8, 1);
  RETURN CASE WHEN gs1_check_digit_ok(upc_a) THEN upc_a END;
END $$;--> statement-breakpoint
CREATE FUNCTION gtin_key(barcode text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  upc_a text;
  gtin text;
BEGIN
  IF barcode !~ '^[0-9]{6,14}$' THEN
    RETURN barcode;
  END IF;
  IF length(barcode) <= 8 THEN
    upc_a := upc_e_to_upc_a(lpad(barcode, 8, '0'));
    IF upc_a IS NOT NULL THEN
      RETURN lpad(upc_a, 14, '0');
    END IF;
  END IF;
  gtin := lpad(barcode, 14, '0');
  RETURN CASE WHEN gs1_check_digit_ok(gtin) THEN gtin ELSE barcode END;
END $$;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "barcode_key" text;--> statement-breakpoint
-- Existing products: each GTIN's oldest product gets the key. A younger one with the same GTIN
-- (two rows that were different barcodes before, e.g. 820650853548 and 0820650853548) keeps
-- barcode_key NULL instead of failing the migration: it is still found by its exact barcode,
-- the server logs it at every start (products.service.ts, reportSharedGtins), and editing its barcode gives it a key.
UPDATE "products" AS p SET "barcode_key" = k.key
FROM (
  SELECT id, gtin_key(barcode) AS key, row_number() OVER (PARTITION BY gtin_key(barcode) ORDER BY id) AS n
  FROM "products"
) AS k
WHERE p.id = k.id AND k.n = 1;--> statement-breakpoint
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT p.id, p.barcode, o.id AS owner_id, o.barcode AS owner_barcode
    FROM "products" p JOIN "products" o ON o.barcode_key = gtin_key(p.barcode)
    WHERE p.barcode_key IS NULL ORDER BY p.id
  LOOP
    RAISE NOTICE 'product % (barcode %) is the same GTIN as product % (barcode %): found only by its exact barcode until one of them changes',
      r.id, r.barcode, r.owner_id, r.owner_barcode;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "products_barcode_key_idx" ON "products" USING btree ("barcode_key");--> statement-breakpoint
-- Every insert and every barcode change computes the key; other updates (taps, imports) leave it.
CREATE FUNCTION products_set_barcode_key() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.barcode IS DISTINCT FROM OLD.barcode THEN
    NEW.barcode_key := gtin_key(NEW.barcode);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER products_barcode_key BEFORE INSERT OR UPDATE OF barcode ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_set_barcode_key();
