-- Live catalogue: products carry a catalogue-wide revision; product audit rows record the
-- product version their change produced (NULL on rows written before this migration).
ALTER TABLE "product_audit" ADD COLUMN "product_version" integer;--> statement-breakpoint
CREATE SEQUENCE "product_revision_seq";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "revision" bigint;--> statement-breakpoint
-- Existing products get revisions 1..n in id order, and the sequence continues after them.
UPDATE "products" AS p SET "revision" = r.n
FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "products") AS r
WHERE p."id" = r."id";--> statement-breakpoint
SELECT setval('product_revision_seq', greatest((SELECT max("revision") FROM "products"), 1), EXISTS (SELECT 1 FROM "products"));--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "revision" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "product_audit_product_version_idx" ON "product_audit" USING btree ("product_id","product_version");--> statement-breakpoint
CREATE INDEX "products_revision_idx" ON "products" USING btree ("revision");--> statement-breakpoint
-- Every product change sets revision = take_revision() in its own transaction. Before taking the
-- next revision, the transaction publishes s, the last revision allocated so far, as a shared
-- advisory lock (visible in pg_locks until it ends); its own revision is then above s.
-- Lock keys are 32-bit: past 2^31 - 1 the published value wraps to a small number, which only
-- lowers the watermark (catch-ups answer more rows), never makes it wrong.
CREATE FUNCTION take_revision() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE s bigint;
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO s FROM product_revision_seq;
  PERFORM pg_advisory_xact_lock_shared(1651270010, (s % 2147483647)::int);
  RETURN nextval('product_revision_seq');
END $$;--> statement-breakpoint
-- W: every revision <= W is committed (or will never exist). The sequence is read before the
-- locks: a transaction publishes its lock before it takes a revision, so one that took a
-- revision <= the value read is still in pg_locks then, unless it has committed. Readers must
-- read W first and the products in a later statement (a newer snapshot).
CREATE FUNCTION catalogue_watermark() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE last bigint; held bigint;
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO last FROM product_revision_seq;
  SELECT min(objid::bigint) INTO held FROM pg_locks
    WHERE locktype = 'advisory' AND classid = 1651270010 AND objsubid = 2;
  RETURN least(last, held);
END $$;
