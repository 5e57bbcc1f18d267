-- Online buylist (issue 40): staff approve a customer's submission before the cards arrive (Pending, then Approved,
-- then Complete once accepted); the trade-in says who approved it and when.
ALTER TABLE "trade_ins" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD COLUMN "approved_at" timestamp with time zone;