-- A first edition is a finish of its own (contract/market.ts FINISHES): TCGplayer and pokemontcg.io price it
-- apart from the unlimited card, so a product says which it is.
ALTER TABLE "product_market" DROP CONSTRAINT "product_market_finish_check";--> statement-breakpoint
ALTER TABLE "product_market" ADD CONSTRAINT "product_market_finish_check" CHECK ("product_market"."finish" in ('normal', 'foil', 'holofoil', 'reverse_holofoil', 'etched', 'first_edition_normal', 'first_edition_holofoil'));