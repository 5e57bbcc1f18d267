-- Stock take review actions (issue 41): a product found away from its location is moved or kept (counted where it
-- was found), an unknown barcode's scans are dropped (kept for the record), and an approval holds a lease on its
-- session (renewed by each batch) instead of a mark in one process's memory, so a second approval is refused from
-- the database alone and an approver that crashed is taken over once its lease has expired.
ALTER TABLE "stock_take_lines" ADD COLUMN "placement" text;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD COLUMN "dropped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_take_scans" ADD COLUMN "dropped_by" text;--> statement-breakpoint
ALTER TABLE "stock_takes" ADD COLUMN "approval_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_takes" ADD COLUMN "approval_lease_holder" text;--> statement-breakpoint
ALTER TABLE "stock_take_lines" ADD CONSTRAINT "stock_take_lines_placement_check" CHECK ("stock_take_lines"."placement" in ('moved', 'kept'));