-- API tokens and orders (src/contract/tokens.ts, orders.ts). Written by drizzle-kit up to the
-- function below, which is added by hand.
CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_by" integer NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"order_id" integer NOT NULL,
	"line" integer NOT NULL,
	"product_id" integer,
	"barcode" text NOT NULL,
	"product_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer,
	CONSTRAINT "order_lines_order_id_line_pk" PRIMARY KEY("order_id","line")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"external_id" text NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"note" text,
	"total" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_id" integer,
	"created_by" text NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('completed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD COLUMN "unit_price" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_idx" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_name_lower_idx" ON "api_tokens" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "orders_channel_external_idx" ON "orders" USING btree ("channel","external_id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD CONSTRAINT "quantity_audit_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quantity_audit_order_idx" ON "quantity_audit" USING btree ("order_id") WHERE "quantity_audit"."order_id" is not null;--> statement-breakpoint
-- The tap stays one statement, and orders use it too (one quantity path): apply_quantity_change()
-- (migrations 0003, 0006) takes the order the change belongs to (p_order_id, NULL for none) and
-- the unit price it sold at (p_unit_price: an order line's; NULL takes the product's price), both
-- written into the quantity audit row with the change.
DROP FUNCTION apply_quantity_change(integer, integer, integer, integer, text, integer, text, text, text, text, integer);--> statement-breakpoint
CREATE FUNCTION apply_quantity_change(
  p_product_id integer, p_delta integer, p_expected integer, p_stock_limit integer, p_reason text,
  p_user_id integer, p_user_name text, p_ip text, p_key text, p_request_hash text, p_show_id integer,
  p_order_id integer, p_unit_price integer
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
          quantity_after, transaction_type, notes, user_id, user_name, show_id, order_id, unit_price)
        VALUES (r.id, r.product_name, r.barcode, p_delta, r.quantity_on_hand - p_delta,
          r.quantity_on_hand, 'adjustment', p_reason, p_user_id, p_user_name, p_show_id, p_order_id,
          COALESCE(p_unit_price, r.price));
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
