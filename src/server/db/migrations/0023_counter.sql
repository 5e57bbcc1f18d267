-- The counter (issue 40): customers, store credit as a ledger, trade-ins, buy settings and limits,
-- and an order's customer and payments (beside the order, so its row stays as it was).
-- Added by hand: the trade-ins' number sequence (before the table that takes its default) and,
-- at the end, the trigger that keeps the credit ledger append-only.
CREATE SEQUENCE "trade_in_number_seq";--> statement-breakpoint
CREATE TABLE "buy_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"trade_in_id" integer,
	"order_id" integer,
	"balance_after" bigint NOT NULL,
	"created_by_id" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_entries_kind_check" CHECK ("credit_entries"."kind" in ('trade_in', 'order', 'adjustment', 'expiry')),
	CONSTRAINT "credit_entries_amount_check" CHECK ("credit_entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "customer_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"action" text NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"user_id" integer,
	"user_name" text NOT NULL,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_credit" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "customer_credit_balance_check" CHECK ("customer_credit"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"erased_at" timestamp with time zone,
	"erased_by" text,
	CONSTRAINT "customers_erased_check" CHECK ("customers"."erased_at" is not null or "customers"."name" is not null)
);
--> statement-breakpoint
CREATE TABLE "order_customers" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_payments" (
	"order_id" integer NOT NULL,
	"line" integer NOT NULL,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "order_payments_order_id_line_pk" PRIMARY KEY("order_id","line"),
	CONSTRAINT "order_payments_method_check" CHECK ("order_payments"."method" in ('cash', 'card', 'credit')),
	CONSTRAINT "order_payments_amount_check" CHECK ("order_payments"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_buy_limits" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"buy_limit" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_buy_limits_check" CHECK ("product_buy_limits"."buy_limit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "trade_in_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"trade_in_id" integer NOT NULL,
	"line" integer NOT NULL,
	"product_id" integer NOT NULL,
	"condition" text,
	"quantity" integer NOT NULL,
	"market_cents" integer,
	"offer_cash_cents" integer NOT NULL,
	"offer_credit_cents" integer NOT NULL,
	"offer_by_hand" boolean DEFAULT false NOT NULL,
	"struck" boolean DEFAULT false NOT NULL,
	"note" text,
	"paid_unit_cents" integer,
	CONSTRAINT "trade_in_lines_quantity_check" CHECK ("trade_in_lines"."quantity" > 0),
	CONSTRAINT "trade_in_lines_offer_check" CHECK ("trade_in_lines"."offer_cash_cents" >= 0 and "trade_in_lines"."offer_credit_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "trade_ins" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer DEFAULT nextval('trade_in_number_seq') NOT NULL,
	"customer_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"payout" text DEFAULT 'cash' NOT NULL,
	"cash_cents" bigint DEFAULT 0 NOT NULL,
	"credit_cents" bigint DEFAULT 0 NOT NULL,
	"note" text,
	"created_by_id" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_by" text,
	"accepted_at" timestamp with time zone,
	"voided_by" text,
	"voided_at" timestamp with time zone,
	CONSTRAINT "trade_ins_status_check" CHECK ("trade_ins"."status" in ('draft', 'accepted', 'void')),
	CONSTRAINT "trade_ins_payout_check" CHECK ("trade_ins"."payout" in ('cash', 'credit', 'split')),
	CONSTRAINT "trade_ins_money_check" CHECK ("trade_ins"."cash_cents" >= 0 and "trade_ins"."credit_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "buy_settings" ADD CONSTRAINT "buy_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_trade_in_id_trade_ins_id_fk" FOREIGN KEY ("trade_in_id") REFERENCES "public"."trade_ins"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_audit" ADD CONSTRAINT "customer_audit_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_audit" ADD CONSTRAINT "customer_audit_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit" ADD CONSTRAINT "customer_credit_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_customers" ADD CONSTRAINT "order_customers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_customers" ADD CONSTRAINT "order_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_buy_limits" ADD CONSTRAINT "product_buy_limits_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_lines" ADD CONSTRAINT "trade_in_lines_trade_in_id_trade_ins_id_fk" FOREIGN KEY ("trade_in_id") REFERENCES "public"."trade_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_lines" ADD CONSTRAINT "trade_in_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD CONSTRAINT "trade_ins_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD CONSTRAINT "trade_ins_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_entries_customer_idx" ON "credit_entries" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "customer_audit_customer_idx" ON "customer_audit" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "order_customers_customer_idx" ON "order_customers" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_in_lines_line_idx" ON "trade_in_lines" USING btree ("trade_in_id","line");--> statement-breakpoint
CREATE INDEX "trade_in_lines_product_idx" ON "trade_in_lines" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_ins_number_idx" ON "trade_ins" USING btree ("number");--> statement-breakpoint
CREATE INDEX "trade_ins_created_idx" ON "trade_ins" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trade_ins_customer_idx" ON "trade_ins" USING btree ("customer_id");
--> statement-breakpoint
-- Store credit is an append-only ledger: no entry is ever changed or removed (a mistake is put
-- right by a new adjustment entry, audited like any other). The balance row beside it
-- (customer_credit) is written in the same statement as each entry (counter.repo.ts).
CREATE FUNCTION credit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_entries is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER credit_entries_append_only BEFORE UPDATE OR DELETE ON "credit_entries"
  FOR EACH ROW EXECUTE FUNCTION credit_entries_append_only();
