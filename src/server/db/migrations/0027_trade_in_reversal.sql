-- Reversing an accepted trade-in (issue 40): a manager takes its stock back out and its credit back by new
-- entries; the trade-in says it was reversed, by whom, when and why.
ALTER TABLE "trade_ins" DROP CONSTRAINT "trade_ins_status_check";--> statement-breakpoint
ALTER TABLE "trade_ins" ADD COLUMN "reversed_by" text;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD CONSTRAINT "trade_ins_status_check" CHECK ("trade_ins"."status" in ('draft', 'accepted', 'void', 'reversed'));