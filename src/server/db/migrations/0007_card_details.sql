ALTER TABLE "products" ADD COLUMN "price" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cost" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "condition" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "grader" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "grade" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "set_name" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "card_number" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_check" CHECK ("products"."price" between 0 and 1000000000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_cost_check" CHECK ("products"."cost" between 0 and 1000000000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_condition_check" CHECK ("products"."condition" in ('Near Mint', 'Lightly Played', 'Moderately Played', 'Heavily Played', 'Damaged', 'Sealed'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_grader_check" CHECK ("products"."grader" in ('PSA', 'BGS', 'CGC', 'SGC', 'Other'));--> statement-breakpoint
-- The API shape gains the card details (null when not set); the list, catch-ups and the
-- quantity change answer through this function, so they all carry them.
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
    'version', p.version,
    'revision', p.revision,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;--> statement-breakpoint
-- Shop codes (SC-000001) for products without a scannable barcode: a sequence never hands out
-- the same number twice, also across server processes.
CREATE SEQUENCE "shop_code_seq";
