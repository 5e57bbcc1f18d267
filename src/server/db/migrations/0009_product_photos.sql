ALTER TABLE "products" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Photo ids: one sequence, so a photo's id is never handed out twice, also across server processes.
CREATE SEQUENCE "product_photo_seq";--> statement-breakpoint
-- The API shape gains `photos` (the column holds them in that shape, the cover first): the list,
-- catch-ups, lookups and the quantity change answer through this function, so they all carry them.
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
    'photos', p.photos,
    'version', p.version,
    'revision', p.revision,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;
