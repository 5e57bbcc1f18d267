-- Written by hand (drizzle-kit writes no functions or triggers).
-- The reorder rule, once: the "To reorder" report, the product.low_stock webhook and the
-- managers' low_stock toast all ask these two functions (the toast through the contract's
-- report-rules.ts, which mirrors them; reorder-rule.test.ts holds both to one table of cases).
-- SQL functions that PostgreSQL inlines where they are used: in a query or a trigger's WHEN they
-- cost what the expression costs.
CREATE FUNCTION at_or_under_reorder_point(quantity integer, reorder_point integer) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT reorder_point IS NOT NULL AND quantity <= reorder_point $$;--> statement-breakpoint
-- A change reached the reorder point when it left the product at or under its point and the
-- product was not there before: a fall to the point, or a point raised to or over the stock.
-- Once there, further falls do not reach it again; rising above it and falling back does.
CREATE FUNCTION reached_reorder_point(before_quantity integer, before_point integer, after_quantity integer, after_point integer)
  RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT at_or_under_reorder_point(after_quantity, after_point) AND NOT at_or_under_reorder_point(before_quantity, before_point) $$;--> statement-breakpoint
-- product.low_stock from the product's row itself, whoever changed it: a tap, an order line, an
-- edit (of the stock or of the point), an import's batch or its undo. A new product is not a
-- change (product.created reports it). Deferred to the commit, so the delivery follows the
-- change's own (inventory.quantity_changed, product.updated) in the outbox, as cause before effect.
CREATE FUNCTION product_low_stock_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF webhook_subscribed('product.low_stock') THEN
    PERFORM enqueue_webhook_event('product.low_stock', NEW.id, json_build_object('product', product_json(NEW)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_low_stock_webhooks AFTER UPDATE OF quantity_on_hand, reorder_point ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (reached_reorder_point(OLD.quantity_on_hand, OLD.reorder_point, NEW.quantity_on_hand, NEW.reorder_point))
  EXECUTE FUNCTION product_low_stock_to_webhooks();--> statement-breakpoint
-- The quantity audit's trigger (migration 0015) without its own reorder check: the trigger above has it.
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
  RETURN NULL;
END $$;
