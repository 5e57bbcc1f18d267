-- Added by hand (drizzle-kit writes no functions).
-- A tap is the commonest change: its inventory.quantity_changed deliveries are written here, not
-- through enqueue_webhook_event() (same rows). The function call, the two webhook_subscribed()
-- looks before it and its own look at the webhooks were a large part of what a webhook adds to a
-- tap on the embedded database (bench/webhooks/README.md).
-- The product is read and its JSON made once, when a webhook wants it.
CREATE OR REPLACE FUNCTION quantity_audit_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p products;
  data json;
  hook integer;
  prefix text;
  delivery bigint;
BEGIN
  FOR hook, prefix IN SELECT w.id, w.message_prefix FROM webhooks w
      WHERE w.enabled AND (w.events ? '*' OR w.events ? 'inventory.quantity_changed') ORDER BY w.id LOOP
    IF data IS NULL THEN
      SELECT * INTO p FROM products WHERE id = NEW.product_id;
      IF NOT FOUND THEN RETURN NULL; END IF;
      -- json, not jsonb: product_json() is json, and turning it into jsonb parses it again on every tap.
      -- A null show_id or order_id is left out when the delivery is sent (webhook-worker.ts).
      data := json_build_object('product', product_json(p), 'quantity_change', NEW.quantity_change,
        'reason', NEW.notes, 'show_id', NEW.show_id, 'order_id', NEW.order_id);
    END IF;
    -- As enqueue_webhook_event(): waits behind a pending delivery of the same product to the same webhook.
    delivery := nextval('webhook_deliveries_id_seq');
    INSERT INTO webhook_deliveries (id, message_id, webhook_id, type, product_id, data, next_attempt_at)
    VALUES (delivery, 'msg_' || prefix || '_' || delivery, hook, 'inventory.quantity_changed', p.id, data,
      CASE WHEN EXISTS (
          SELECT 1 FROM webhook_deliveries e
          WHERE e.webhook_id = hook AND e.product_id = p.id AND e.status = 'pending')
        THEN NULL ELSE now() END);
  END LOOP;
  -- The change took the product to or under its reorder point (migration 0012; contract
  -- report-rules.ts reachedReorderPoint, as the managers' live low_stock event). Only a fall can.
  IF NEW.quantity_after < NEW.quantity_before THEN
    IF data IS NULL THEN
      IF NOT webhook_subscribed('product.low_stock') THEN RETURN NULL; END IF;
      SELECT * INTO p FROM products WHERE id = NEW.product_id;
      IF NOT FOUND THEN RETURN NULL; END IF;
    END IF;
    IF p.reorder_point IS NOT NULL AND NEW.quantity_after <= p.reorder_point AND NEW.quantity_before > p.reorder_point THEN
      PERFORM enqueue_webhook_event('product.low_stock', p.id, json_build_object('product', product_json(p)));
    END IF;
  END IF;
  RETURN NULL;
END $$;
