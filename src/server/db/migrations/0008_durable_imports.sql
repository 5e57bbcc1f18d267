CREATE TABLE "import_chunks" (
	"import_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"chunk" integer NOT NULL,
	"row_count" integer NOT NULL,
	"start" integer,
	"rows" jsonb NOT NULL,
	CONSTRAINT "import_chunks_import_id_part_chunk_pk" PRIMARY KEY("import_id","part","chunk")
);
--> statement-breakpoint
CREATE TABLE "import_errors" (
	"import_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"seq" integer NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "import_errors_import_id_row_seq_pk" PRIMARY KEY("import_id","row","seq")
);
--> statement-breakpoint
CREATE TABLE "import_keys" (
	"import_id" uuid NOT NULL,
	"key" text NOT NULL,
	"row" integer NOT NULL,
	CONSTRAINT "import_keys_import_id_key_pk" PRIMARY KEY("import_id","key")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer,
	"user_name" text NOT NULL,
	"ip_address" text,
	"status" text NOT NULL,
	"first_row" integer DEFAULT 2 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"runner" text,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"touched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"undone_by" text
);
--> statement-breakpoint
ALTER TABLE "product_audit" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "import_chunks" ADD CONSTRAINT "import_chunks_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_errors" ADD CONSTRAINT "import_errors_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_keys" ADD CONSTRAINT "import_keys_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_chunks_start_idx" ON "import_chunks" USING btree ("import_id","start");--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "imports_committing_idx" ON "imports" USING btree ("lease_until") WHERE "imports"."status" = 'committing';--> statement-breakpoint
CREATE INDEX "product_audit_import_idx" ON "product_audit" USING btree ("import_id","id") WHERE "product_audit"."import_id" is not null;