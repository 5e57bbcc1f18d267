-- A product's API JSON written as text (product_json_text), the same fields, values and order as
-- product_json() since 0012 (the SQL twin of products.presenter.ts toProduct). json_build_object
-- costs about twice the CPU, and every catalogue mirror reads every changed product through it
-- (each server process reads each product an import writes), so during a large import that work
-- would take a core from the import. Its text has no blanks around the colons: a smaller list.
-- product_json() keeps its json type for the statements that build JSON around it (taps' answers,
-- webhooks): it is this text, checked once as json.
-- Nullable columns are coalesced: one null operand would make the whole text null.
CREATE OR REPLACE FUNCTION product_json_text(p products) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT '{"id":' || p.id
    || ',"barcode":' || to_json(p.barcode)
    || ',"product_name":' || to_json(p.product_name)
    || ',"vendor":' || to_json(p.vendor)
    || ',"release_year":' || coalesce(p.release_year::text, 'null')
    || ',"quantity_on_hand":' || p.quantity_on_hand
    || ',"is_active":' || p.is_active
    || ',"price":' || coalesce(p.price::text, 'null')
    || ',"cost":' || coalesce(p.cost::text, 'null')
    || ',"condition":' || coalesce(to_json(p.condition)::text, 'null')
    || ',"grader":' || coalesce(to_json(p.grader)::text, 'null')
    || ',"grade":' || coalesce(to_json(p.grade)::text, 'null')
    || ',"set_name":' || coalesce(to_json(p.set_name)::text, 'null')
    || ',"card_number":' || coalesce(to_json(p.card_number)::text, 'null')
    || ',"location":' || coalesce(to_json(p.location)::text, 'null')
    || ',"reorder_point":' || coalesce(p.reorder_point::text, 'null')
    || ',"photos":' || p.photos
    || ',"version":' || p.version
    || ',"revision":' || p.revision
    || ',"created_at":"' || to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","updated_at":"' || to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_json(p products) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT product_json_text(p)::json
$$;
