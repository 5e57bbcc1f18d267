-- Online buylist (issue 40): a trade-in made from a customer's submission of the public buylist is marked
-- 'online' (staff see it as received online in the Counter's drafts); every other one was made at the counter.
ALTER TABLE "trade_ins" ADD COLUMN "source" text DEFAULT 'counter' NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD CONSTRAINT "trade_ins_source_check" CHECK ("trade_ins"."source" in ('counter', 'online'));