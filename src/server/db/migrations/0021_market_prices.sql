CREATE TABLE "feed_cards" (
	"run_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"tcgplayer_product_id" integer,
	"scryfall_id" text,
	"pokemontcg_id" text,
	"barcode" text,
	"external_source" text,
	"external_id" text,
	"name" text,
	"set_code" text,
	"set_name" text,
	"number" text,
	"number_key" text,
	"set_code_key" text,
	"set_name_key" text,
	"finish" text NOT NULL,
	"condition" text,
	"market" integer,
	"low" integer,
	"mid" integer,
	"high" integer,
	"direct_low" integer,
	CONSTRAINT "feed_cards_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "market_prices" (
	"product_id" integer NOT NULL,
	"feed_id" integer NOT NULL,
	"day" date NOT NULL,
	"checked_on" date NOT NULL,
	"finish" text NOT NULL,
	"currency" text NOT NULL,
	"market" integer,
	"low" integer,
	"mid" integer,
	"high" integer,
	"direct_low" integer,
	"by_condition" jsonb,
	CONSTRAINT "market_prices_product_id_feed_id_day_pk" PRIMARY KEY("product_id","feed_id","day")
);
--> statement-breakpoint
CREATE TABLE "price_feed_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"feed_id" integer NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"day" date NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"proposals" integer DEFAULT 0 NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"started_by" integer
);
--> statement-breakpoint
CREATE TABLE "price_feeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"url" text,
	"products_url" text,
	"fetched_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "price_feeds_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "price_proposals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"run_id" integer,
	"old_price" integer,
	"new_price" integer NOT NULL,
	"market" integer NOT NULL,
	"estimated" boolean NOT NULL,
	"change_percent" double precision,
	"at_stake" integer NOT NULL,
	"big" boolean NOT NULL,
	"steps" jsonb NOT NULL,
	"based_on" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	"import_id" uuid
);
--> statement-breakpoint
CREATE TABLE "pricing_rules" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "product_market" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"tcgplayer_product_id" integer,
	"scryfall_id" text,
	"pokemontcg_id" text,
	"external_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"finish" text DEFAULT 'normal' NOT NULL,
	"price_frozen" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_market_finish_check" CHECK ("product_market"."finish" in ('normal', 'foil', 'holofoil', 'reverse_holofoil', 'etched'))
);
--> statement-breakpoint
ALTER TABLE "feed_cards" ADD CONSTRAINT "feed_cards_run_id_price_feed_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."price_feed_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_prices" ADD CONSTRAINT "market_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_prices" ADD CONSTRAINT "market_prices_feed_id_price_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."price_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_feed_runs" ADD CONSTRAINT "price_feed_runs_feed_id_price_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."price_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_feed_runs" ADD CONSTRAINT "price_feed_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_feeds" ADD CONSTRAINT "price_feeds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_proposals" ADD CONSTRAINT "price_proposals_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_proposals" ADD CONSTRAINT "price_proposals_run_id_price_feed_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."price_feed_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_proposals" ADD CONSTRAINT "price_proposals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_proposals" ADD CONSTRAINT "price_proposals_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_rules" ADD CONSTRAINT "pricing_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_market" ADD CONSTRAINT "product_market_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feed_cards_tcgplayer_idx" ON "feed_cards" USING btree ("run_id","tcgplayer_product_id");--> statement-breakpoint
CREATE INDEX "feed_cards_scryfall_idx" ON "feed_cards" USING btree ("run_id","scryfall_id");--> statement-breakpoint
CREATE INDEX "feed_cards_pokemontcg_idx" ON "feed_cards" USING btree ("run_id","pokemontcg_id");--> statement-breakpoint
CREATE INDEX "feed_cards_barcode_idx" ON "feed_cards" USING btree ("run_id","barcode");--> statement-breakpoint
CREATE INDEX "feed_cards_external_idx" ON "feed_cards" USING btree ("run_id","external_source","external_id");--> statement-breakpoint
CREATE INDEX "feed_cards_set_code_idx" ON "feed_cards" USING btree ("run_id","number_key","set_code_key");--> statement-breakpoint
CREATE INDEX "feed_cards_set_name_idx" ON "feed_cards" USING btree ("run_id","number_key","set_name_key");--> statement-breakpoint
CREATE INDEX "market_prices_feed_idx" ON "market_prices" USING btree ("feed_id","product_id");--> statement-breakpoint
CREATE INDEX "price_feed_runs_feed_idx" ON "price_feed_runs" USING btree ("feed_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "price_proposals_pending_idx" ON "price_proposals" USING btree ("product_id") WHERE "price_proposals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "price_proposals_stake_idx" ON "price_proposals" USING btree ("at_stake" DESC NULLS LAST) WHERE "price_proposals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "product_market_tcgplayer_idx" ON "product_market" USING btree ("tcgplayer_product_id");--> statement-breakpoint
CREATE INDEX "product_market_scryfall_idx" ON "product_market" USING btree ("scryfall_id");--> statement-breakpoint
CREATE INDEX "product_market_pokemontcg_idx" ON "product_market" USING btree ("pokemontcg_id");--> statement-breakpoint
-- Written by hand: what a product and a feed's card are matched by when no id links them.
-- A collector number as printed, compared without its total and leading zeros ("025/198" and
-- "25" are one number) and without letter case ("SV001" and "sv1" stay apart: the letters count).
CREATE FUNCTION card_number_key(number text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT nullif(regexp_replace(lower(split_part(btrim(number), '/', 1)), '^0+(?=.)', ''), '') $$;--> statement-breakpoint
-- A set's code or name, compared without letter case, spacing or punctuation ("Scarlet & Violet—151"
-- and "scarlet violet 151" are one).
CREATE FUNCTION set_key(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT nullif(regexp_replace(lower(name), '[^[:alnum:]]+', '', 'g'), '') $$;
