ALTER TABLE "idempotency_keys" ADD COLUMN "request_hash" text;--> statement-breakpoint
-- A product in the API's JSON shape (timestamps ISO 8601 UTC with milliseconds), the one SQL
-- presenter: the list, catch-ups and the quantity change answer with it (toProduct in
-- products.presenter.ts is its twin for rows read through drizzle).
CREATE FUNCTION product_json(p products) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'id', p.id,
    'barcode', p.barcode,
    'product_name', p.product_name,
    'vendor', p.vendor,
    'release_year', p.release_year,
    'quantity_on_hand', p.quantity_on_hand,
    'is_active', p.is_active,
    'version', p.version,
    'revision', p.revision,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;--> statement-breakpoint
-- A stock change in one statement, so one round trip: the Idempotency-Key claim, the
-- conditional UPDATE (never read-then-write), both audit rows and the stored answer, all in the
-- statement's own transaction. Answers the status, the body (the product, or {"refusal": code}
-- that the server turns into its message) and whether it is the stored answer of an earlier
-- request with the same key. p_product_id NULL: an id no product can have (404). p_expected: a
-- stock count's starting stock; when the stock is no longer that, nothing changes (409).
CREATE FUNCTION apply_quantity_change(
  p_product_id integer, p_delta integer, p_expected integer, p_stock_limit integer, p_reason text,
  p_user_id integer, p_user_name text, p_ip text, p_key text, p_request_hash text
) RETURNS TABLE (status integer, body json, replayed boolean) LANGUAGE plpgsql AS $$
DECLARE
  r products;
  stored idempotency_keys;
  answer_status integer;
  answer_body json;
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
        quantity_after, transaction_type, notes, user_id, user_name)
      VALUES (r.id, r.product_name, r.barcode, p_delta, r.quantity_on_hand - p_delta,
        r.quantity_on_hand, 'adjustment', p_reason, p_user_id, p_user_name);
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

  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys k SET status_code = answer_status, body = answer_body
      WHERE k.user_id = p_user_id AND k.key = p_key;
  END IF;
  RETURN QUERY SELECT answer_status, answer_body, false;
END $$;
