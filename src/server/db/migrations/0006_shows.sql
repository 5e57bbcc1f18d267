-- Shows: a stream's ledger (see src/contract/shows.ts). One running show per user; taps made
-- during a show carry its id in quantity_audit.show_id.
CREATE TABLE "shows" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"started_by" integer,
	"started_by_name" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by_name" text
);
--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD COLUMN "show_id" integer;--> statement-breakpoint
ALTER TABLE "shows" ADD CONSTRAINT "shows_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shows_one_running_per_user_idx" ON "shows" USING btree ("started_by") WHERE "shows"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "shows_started_idx" ON "shows" USING btree ("started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD CONSTRAINT "quantity_audit_show_id_shows_id_fk" FOREIGN KEY ("show_id") REFERENCES "public"."shows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quantity_audit_show_idx" ON "quantity_audit" USING btree ("show_id","id");--> statement-breakpoint
-- The tap stays one statement: apply_quantity_change() (migration 0003) takes the show the tap
-- was made in (p_show_id, NULL for none), refuses a show that is not the user's own (404 when
-- there is no such show, 403 when it is someone else's) and writes the id into the quantity
-- audit row with the change. An ended show is still accepted: a tap queued offline during the
-- show and sent once the server is back belongs to it.
DROP FUNCTION apply_quantity_change(integer, integer, integer, integer, text, integer, text, text, text, text);--> statement-breakpoint
CREATE FUNCTION apply_quantity_change(
  p_product_id integer, p_delta integer, p_expected integer, p_stock_limit integer, p_reason text,
  p_user_id integer, p_user_name text, p_ip text, p_key text, p_request_hash text, p_show_id integer
) RETURNS TABLE (status integer, body json, replayed boolean) LANGUAGE plpgsql AS $$
DECLARE
  r products;
  stored idempotency_keys;
  answer_status integer;
  answer_body json;
  show_owner integer;
  show_found boolean := true;
BEGIN
  IF p_key IS NOT NULL THEN
    -- A concurrent request with the same key waits here until the first one commits.
    INSERT INTO idempotency_keys (user_id, key, status_code, body, request_hash)
      VALUES (p_user_id, p_key, 0, 'null', p_request_hash)
      ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      SELECT * INTO stored FROM idempotency_keys k WHERE k.user_id = p_user_id AND k.key = p_key;
      IF stored.request_hash IS NOT NULL AND stored.request_hash <> p_request_hash THEN
        RETURN QUERY SELECT 422, json_build_object('refusal', 'key_reused'), true;
      ELSE
        RETURN QUERY SELECT stored.status_code, stored.body::json, true;
      END IF;
      RETURN;
    END IF;
  END IF;

  IF p_show_id IS NOT NULL THEN
    SELECT s.started_by INTO show_owner FROM shows s WHERE s.id = p_show_id;
    show_found := FOUND;
  END IF;

  IF p_show_id IS NOT NULL AND NOT show_found THEN
    answer_status := 404;
    answer_body := json_build_object('refusal', 'show_not_found');
  ELSIF p_show_id IS NOT NULL AND show_owner IS DISTINCT FROM p_user_id THEN
    answer_status := 403;
    answer_body := json_build_object('refusal', 'show_not_yours');
  ELSE
    UPDATE products AS p
      SET quantity_on_hand = p.quantity_on_hand + p_delta, version = p.version + 1,
          revision = take_revision(), updated_at = now()
      WHERE p.id = p_product_id AND p.is_active
        AND (p_expected IS NULL OR p.quantity_on_hand = p_expected)
        AND p.quantity_on_hand + p_delta >= 0 AND p.quantity_on_hand + p_delta < p_stock_limit
      RETURNING * INTO r;
    IF FOUND THEN
      INSERT INTO product_audit (product_id, product_name, barcode, action, user_id, user_name,
          changed_fields, old_values, new_values, ip_address, product_version)
        VALUES (r.id, r.product_name, r.barcode,
          CASE WHEN p_delta > 0 THEN 'QUANTITY_ADD' ELSE 'QUANTITY_SUBTRACT' END,
          p_user_id, p_user_name, '["quantity_on_hand"]',
          jsonb_build_object('quantity_on_hand', r.quantity_on_hand - p_delta),
          jsonb_build_object('quantity_on_hand', r.quantity_on_hand), p_ip, r.version);
      INSERT INTO quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before,
          quantity_after, transaction_type, notes, user_id, user_name, show_id)
        VALUES (r.id, r.product_name, r.barcode, p_delta, r.quantity_on_hand - p_delta,
          r.quantity_on_hand, 'adjustment', p_reason, p_user_id, p_user_name, p_show_id);
      answer_status := 200;
      answer_body := product_json(r);
    ELSE
      SELECT * INTO r FROM products p WHERE p.id = p_product_id;
      answer_status := CASE WHEN r.id IS NULL THEN 404 ELSE 409 END;
      answer_body := json_build_object('refusal', CASE
        WHEN r.id IS NULL THEN 'not_found'
        WHEN NOT r.is_active THEN 'disabled'
        WHEN p_expected IS NOT NULL AND r.quantity_on_hand <> p_expected THEN 'stock_moved'
        WHEN r.quantity_on_hand + p_delta < 0 THEN 'insufficient_stock'
        ELSE 'stock_limit' END);
    END IF;
  END IF;

  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys k SET status_code = answer_status, body = answer_body
      WHERE k.user_id = p_user_id AND k.key = p_key;
  END IF;
  RETURN QUERY SELECT answer_status, answer_body, false;
END $$;
