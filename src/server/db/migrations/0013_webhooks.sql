CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"type" text NOT NULL,
	"product_id" integer,
	"data" json NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"message_prefix" text DEFAULT left(replace(gen_random_uuid()::text, '-', ''), 12) NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending' and "webhook_deliveries"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lane_idx" ON "webhook_deliveries" USING btree ("webhook_id","product_id","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
-- Written by hand from here on (drizzle-kit generates no functions or triggers). The outbox is
-- filled in the transaction of the change it reports, from the rows every change path already
-- writes in that transaction: the audit rows (taps in apply_quantity_change(), creates, edits,
-- status, photos, import undos) and the import's row when it is done. So a refused or
-- rolled-back change leaves no delivery, and a committed one always has its deliveries.
-- Whether anyone listens is one look at the small webhooks table: a tap with no webhook pays
-- for that and nothing more.
-- PL/pgSQL, not SQL: a SQL function called from a trigger is planned again on every call
-- (a tenth of a millisecond, as much as the rest of a tap); PL/pgSQL keeps its plan.
CREATE FUNCTION webhook_subscribed(p_type text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM webhooks w WHERE w.enabled AND (w.events ? '*' OR w.events ? p_type));
END $$;--> statement-breakpoint
-- One delivery per enabled webhook subscribed to the type. A delivery about a product waits
-- (next_attempt_at NULL) while an earlier one about the same product to the same webhook is
-- pending: the worker releases it when that one is done, so a product's deliveries go in commit
-- order (the change holds the product's row lock here, and the worker takes a share lock on it
-- before releasing the next one). Orders (and any later event) call this in their transaction:
--   SELECT enqueue_webhook_event('order.created', NULL, json_build_object('order', ...));
CREATE FUNCTION enqueue_webhook_event(p_type text, p_product_id integer, p_data json) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  hook integer;
  prefix text;
  delivery bigint;
  written integer := 0;
BEGIN
  -- One webhook at a time (a handful at most): each statement keeps a plan that probes the
  -- lane index. (Written as one INSERT ... SELECT, a call took longer the fuller the outbox was.)
  -- The webhook-id is the webhook's random prefix and the delivery's id: no random number per row.
  FOR hook, prefix IN SELECT w.id, w.message_prefix FROM webhooks w
      WHERE w.enabled AND (w.events ? '*' OR w.events ? p_type) ORDER BY w.id LOOP
    delivery := nextval('webhook_deliveries_id_seq');
    INSERT INTO webhook_deliveries (id, message_id, webhook_id, type, product_id, data, next_attempt_at)
    VALUES (delivery, 'msg_' || prefix || '_' || delivery, hook, p_type, p_product_id, p_data,
      CASE WHEN p_product_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM webhook_deliveries e
          WHERE e.webhook_id = hook AND e.product_id = p_product_id AND e.status = 'pending')
        THEN NULL ELSE now() END);
    written := written + 1;
  END LOOP;
  RETURN written;
END $$;--> statement-breakpoint
-- Product audit rows: created, updated (with the changed fields), status changed. The stock
-- changes are reported from the quantity audit (it has the reason and the show); an import's
-- own rows (import_id set) are reported once, as products.imported, when the import is done.
CREATE FUNCTION product_audit_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text := CASE NEW.action WHEN 'CREATE' THEN 'product.created' WHEN 'UPDATE' THEN 'product.updated'
    ELSE 'product.status_changed' END;
  p products;
BEGIN
  IF NOT webhook_subscribed(event_type) THEN RETURN NULL; END IF;
  SELECT * INTO p FROM products WHERE id = NEW.product_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  PERFORM enqueue_webhook_event(event_type, p.id, CASE WHEN event_type = 'product.updated'
    THEN json_build_object('product', product_json(p), 'changed_fields', NEW.changed_fields)
    ELSE json_build_object('product', product_json(p)) END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_audit_webhooks AFTER INSERT ON product_audit FOR EACH ROW
  WHEN (NEW.import_id IS NULL AND NEW.action IN ('CREATE', 'UPDATE', 'DISABLE', 'ENABLE'))
  EXECUTE FUNCTION product_audit_to_webhooks();--> statement-breakpoint
-- Quantity audit rows: every stock change but a new product's first stock (product.created
-- says it) and an import's (products.imported); an order's lines carry its `order_id` (0011).
CREATE FUNCTION quantity_audit_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p products;
BEGIN
  IF NOT webhook_subscribed('inventory.quantity_changed') AND NOT webhook_subscribed('product.low_stock') THEN RETURN NULL; END IF;
  SELECT * INTO p FROM products WHERE id = NEW.product_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  -- json, not jsonb: product_json() is json, and turning it into jsonb parses it again on every tap.
  -- A null show_id or order_id is left out when the delivery is sent (webhook-worker.ts).
  PERFORM enqueue_webhook_event('inventory.quantity_changed', p.id,
    json_build_object('product', product_json(p), 'quantity_change', NEW.quantity_change, 'reason', NEW.notes,
      'show_id', NEW.show_id, 'order_id', NEW.order_id));
  -- The change took the product to or under its reorder point (migration 0012; contract
  -- report-rules.ts reachedReorderPoint, as the managers' live low_stock event).
  IF p.reorder_point IS NOT NULL AND NEW.quantity_after <= p.reorder_point AND NEW.quantity_before > p.reorder_point THEN
    PERFORM enqueue_webhook_event('product.low_stock', p.id, json_build_object('product', product_json(p)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER quantity_audit_webhooks AFTER INSERT ON quantity_audit FOR EACH ROW
  WHEN (NEW.transaction_type NOT IN ('create', 'import'))
  EXECUTE FUNCTION quantity_audit_to_webhooks();--> statement-breakpoint
-- An import is reported once, in the transaction of its last batch (the one that marks it done).
CREATE FUNCTION import_done_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF webhook_subscribed('products.imported') THEN
    PERFORM enqueue_webhook_event('products.imported', NULL,
      json_build_object('import_id', NEW.id, 'created', NEW.created, 'updated', NEW.updated));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER imports_webhooks AFTER UPDATE OF status ON imports FOR EACH ROW
  WHEN (NEW.status = 'done' AND OLD.status IS DISTINCT FROM 'done')
  EXECUTE FUNCTION import_done_to_webhooks();
--> statement-breakpoint
-- An attempt's outcome in one statement (one round trip: on the embedded database the worker
-- shares the one connection with the taps): the delivery succeeded, is due again after
-- p_retry_secs, or failed once older than p_give_up_secs; the endpoint's failure streak (disabled
-- once it has failed for p_give_up_secs); and, once the delivery is done, the next delivery of the
-- same product to the same webhook is released. The share lock on the product waits for a change
-- to it that is committing, so that change's delivery is seen here and released in turn.
CREATE FUNCTION record_webhook_attempt(
  p_id bigint, p_webhook_id integer, p_product_id integer, p_ok boolean, p_status integer, p_error text,
  p_retry_secs double precision, p_give_up_secs double precision, p_disabled_reason text
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  outcome text;
  give_up interval := make_interval(secs => p_give_up_secs);
  retry interval := make_interval(secs => p_retry_secs);
BEGIN
  IF p_product_id IS NOT NULL THEN
    PERFORM 1 FROM products WHERE id = p_product_id FOR SHARE;
  END IF;
  IF p_ok THEN
    UPDATE webhook_deliveries SET status = 'succeeded', last_status = p_status, last_error = NULL,
        next_attempt_at = NULL, lease_until = NULL, finished_at = now()
      WHERE id = p_id RETURNING status INTO outcome;
    UPDATE webhooks SET failing_since = NULL WHERE id = p_webhook_id AND failing_since IS NOT NULL;
  ELSE
    UPDATE webhook_deliveries d SET
        status = CASE WHEN d.created_at + give_up < now() + retry THEN 'failed' ELSE 'pending' END,
        next_attempt_at = CASE WHEN d.created_at + give_up < now() + retry THEN NULL ELSE now() + retry END,
        finished_at = CASE WHEN d.created_at + give_up < now() + retry THEN now() ELSE NULL END,
        last_status = p_status, last_error = p_error, lease_until = NULL
      WHERE d.id = p_id RETURNING d.status INTO outcome;
    UPDATE webhooks w SET failing_since = coalesce(w.failing_since, now()),
        enabled = CASE WHEN w.failing_since <= now() - give_up THEN false ELSE w.enabled END,
        disabled_reason = CASE WHEN w.enabled AND w.failing_since <= now() - give_up THEN p_disabled_reason
          ELSE w.disabled_reason END
      WHERE w.id = p_webhook_id;
  END IF;
  outcome := coalesce(outcome, 'failed');
  IF outcome <> 'pending' AND p_product_id IS NOT NULL THEN
    UPDATE webhook_deliveries SET next_attempt_at = now()
      WHERE id = (SELECT min(e.id) FROM webhook_deliveries e
          WHERE e.webhook_id = p_webhook_id AND e.product_id = p_product_id
            AND e.status = 'pending' AND e.next_attempt_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
          WHERE e.webhook_id = p_webhook_id AND e.product_id = p_product_id
            AND e.status = 'pending' AND e.next_attempt_at IS NOT NULL);
  END IF;
  RETURN outcome;
END $$;
