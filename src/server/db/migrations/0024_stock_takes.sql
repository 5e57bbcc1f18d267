-- Stock takes (issue 41): locations the shop keeps (products keep their free-text location), count
-- sessions, their scans (once per client_scan_id) and per-product lines (stock and audit position at
-- the first scan), the quantity audit's stock take (set on the changes an approval makes) and an
-- index to sum a product's changes after a position.
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_take_lines" (
	"stock_take_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"base_quantity" integer NOT NULL,
	"base_audit_id" bigint NOT NULL,
	"counted" integer DEFAULT 0 NOT NULL,
	"first_scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_expected" integer,
	"applied" integer,
	CONSTRAINT "stock_take_lines_stock_take_id_product_id_pk" PRIMARY KEY("stock_take_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "stock_take_scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stock_take_id" integer NOT NULL,
	"client_scan_id" text NOT NULL,
	"barcode" text NOT NULL,
	"product_id" integer,
	"location_id" integer,
	"quantity" integer NOT NULL,
	"device" text,
	"user_id" integer,
	"user_name" text NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"result" text,
	"count_before" integer DEFAULT 0 NOT NULL,
	"counted_after" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stock_take_scans_quantity_check" CHECK ("stock_take_scans"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "stock_takes" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'counting' NOT NULL,
	"location_ids" jsonb,
	"started_by_id" integer,
	"started_by" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"approved_by" text,
	CONSTRAINT "stock_takes_status_check" CHECK ("stock_takes"."status" in ('counting', 'review', 'approved', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD COLUMN "stock_take_id" integer;--> statement-breakpoint
ALTER TABLE "stock_take_lines" ADD CONSTRAINT "stock_take_lines_stock_take_id_stock_takes_id_fk" FOREIGN KEY ("stock_take_id") REFERENCES "public"."stock_takes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_take_lines" ADD CONSTRAINT "stock_take_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD CONSTRAINT "stock_take_scans_stock_take_id_stock_takes_id_fk" FOREIGN KEY ("stock_take_id") REFERENCES "public"."stock_takes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD CONSTRAINT "stock_take_scans_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD CONSTRAINT "stock_take_scans_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD CONSTRAINT "stock_take_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_takes" ADD CONSTRAINT "stock_takes_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "locations_name_idx" ON "locations" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "stock_take_lines_product_idx" ON "stock_take_lines" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_take_scans_client_idx" ON "stock_take_scans" USING btree ("stock_take_id","client_scan_id");--> statement-breakpoint
CREATE INDEX "stock_take_scans_product_idx" ON "stock_take_scans" USING btree ("stock_take_id","product_id");--> statement-breakpoint
CREATE INDEX "stock_takes_started_idx" ON "stock_takes" USING btree ("started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "quantity_audit" ADD CONSTRAINT "quantity_audit_stock_take_id_stock_takes_id_fk" FOREIGN KEY ("stock_take_id") REFERENCES "public"."stock_takes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quantity_audit_product_id_idx" ON "quantity_audit" USING btree ("product_id","id");