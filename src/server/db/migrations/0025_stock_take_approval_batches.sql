-- Stock take approval in short transactions (issue 41): the session is `approving` while its batches
-- run, and each line records the approval's progress (pending, applied, refused), so a batch that
-- committed is never applied again and an approval cut off is resumed by approving again.
ALTER TABLE "stock_takes" DROP CONSTRAINT "stock_takes_status_check";--> statement-breakpoint
ALTER TABLE "stock_take_lines" ADD COLUMN "approval" text;--> statement-breakpoint
ALTER TABLE "stock_take_lines" ADD CONSTRAINT "stock_take_lines_approval_check" CHECK ("stock_take_lines"."approval" in ('pending', 'applied', 'refused'));--> statement-breakpoint
ALTER TABLE "stock_takes" ADD CONSTRAINT "stock_takes_status_check" CHECK ("stock_takes"."status" in ('counting', 'review', 'approving', 'approved', 'cancelled'));;--> statement-breakpoint
UPDATE "stock_take_lines" SET "approval" = 'applied' WHERE "applied" IS NOT NULL;