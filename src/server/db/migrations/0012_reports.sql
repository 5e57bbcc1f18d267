CREATE TABLE "report_rollups" (
	"name" text PRIMARY KEY NOT NULL,
	"timezone" text NOT NULL,
	"through" date,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily" (
	"day" date NOT NULL,
	"source" text NOT NULL,
	"units" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "sales_daily_day_source_pk" PRIMARY KEY("day","source")
);
--> statement-breakpoint
CREATE TABLE "sales_monthly" (
	"month" date NOT NULL,
	"product_id" integer NOT NULL,
	"units" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "sales_monthly_month_product_id_pk" PRIMARY KEY("month","product_id")
);
--> statement-breakpoint
CREATE TABLE "stock_value_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"timezone" text NOT NULL,
	"units" bigint NOT NULL,
	"at_price" bigint NOT NULL,
	"at_cost" bigint NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reorder_point" integer;--> statement-breakpoint
CREATE INDEX "products_reorder_idx" ON "products" USING btree ("vendor","product_name") WHERE "products"."reorder_point" is not null and "products"."is_active";--> statement-breakpoint
-- Covering (INCLUDE, added by hand: drizzle-kit does not write it): the sales of the days not
-- rolled up yet are read from this index alone.
CREATE INDEX "quantity_audit_sale_time_idx" ON "quantity_audit" USING btree ("timestamp") INCLUDE ("quantity_change", "unit_price", "show_id", "notes", "product_id") WHERE "quantity_audit"."transaction_type" = 'adjustment' and ("quantity_audit"."show_id" is not null or "quantity_audit"."notes" in ('Streamer adjustment', 'Undo'));--> statement-breakpoint
-- Covering too (by hand): a show's sales are summed from this index alone.
CREATE INDEX "quantity_audit_show_sale_idx" ON "quantity_audit" USING btree ("show_id") INCLUDE ("quantity_change", "unit_price", "notes") WHERE "quantity_audit"."show_id" is not null and "quantity_audit"."transaction_type" = 'adjustment';--> statement-breakpoint
CREATE INDEX "quantity_audit_sale_product_idx" ON "quantity_audit" USING btree ("product_id","timestamp") WHERE "quantity_audit"."transaction_type" = 'adjustment' and ("quantity_audit"."show_id" is not null or "quantity_audit"."notes" in ('Streamer adjustment', 'Undo'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_point_check" CHECK ("products"."reorder_point" >= 0);--> statement-breakpoint
-- Added by hand (drizzle-kit writes no functions, triggers or fills).
-- Reports value a sale at its unit price (migration 0011: apply_quantity_change() writes an order
-- line's price, else the product's price then). Rows from before 0011: the price the product audit
-- says the product had then (the latest price change before the row, else the old value of the
-- first change after it, else today's price).
UPDATE quantity_audit q SET unit_price = coalesce(
  (SELECT (a.new_values->>'price')::integer FROM product_audit a
    WHERE a.product_id = q.product_id AND a.timestamp <= q.timestamp AND a.new_values ? 'price'
    ORDER BY a.timestamp DESC, a.id DESC LIMIT 1),
  (SELECT (a.old_values->>'price')::integer FROM product_audit a
    WHERE a.product_id = q.product_id AND a.timestamp > q.timestamp AND a.old_values ? 'price'
    ORDER BY a.timestamp, a.id LIMIT 1),
  (SELECT p.price FROM products p WHERE p.id = q.product_id))
WHERE q.product_id IS NOT NULL AND q.unit_price IS NULL;--> statement-breakpoint
-- The API shape gains `reorder_point` (null when not set).
CREATE OR REPLACE FUNCTION product_json(p products) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'id', p.id,
    'barcode', p.barcode,
    'product_name', p.product_name,
    'vendor', p.vendor,
    'release_year', p.release_year,
    'quantity_on_hand', p.quantity_on_hand,
    'is_active', p.is_active,
    'price', p.price,
    'cost', p.cost,
    'condition', p.condition,
    'grader', p.grader,
    'grade', p.grade,
    'set_name', p.set_name,
    'card_number', p.card_number,
    'location', p.location,
    'reorder_point', p.reorder_point,
    'photos', p.photos,
    'version', p.version,
    'revision', p.revision,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;
