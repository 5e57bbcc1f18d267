import type { z } from "zod";
import { COUNTER_FEED_CARDS_SHOWN, type CounterFeedCard, type productFromFeedBodySchema } from "../../../contract/counter.js";
import type { Product } from "../../../contract/products.js";
import { SHOP_CODE_PREFIX } from "../../../contract/rules.js";
import { notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { barcodeTaken, nextShopCodeNumber } from "../products/products.repo.js";
import type { CreateProductInput } from "../products/products.service.js";
import { createProductIn } from "../products/products.service.js";
import { COUNTER } from "./customers.service.js";
import { type FeedPrinting, feedCardsNamed, feedPrinting, insertMarketIds, insertMarketPrice } from "./feed-cards.repo.js";

/** Printings of every feed's latest finished run whose name holds `q`: a card the catalogue does not have yet. */
export async function searchFeedCards(ctx: ServiceContext, q: string): Promise<CounterFeedCard[]> {
  requirePermission(ctx, ...COUNTER);
  return feedCardsNamed(ctx.db, q, COUNTER_FEED_CARDS_SHOWN);
}

const vendorOf = (card: FeedPrinting) => (card.pokemontcg_id ? "Pokémon" : card.scryfall_id ? "Magic: The Gathering" : card.feed_name);

/** A shop code no product has (as POST /api/products/shop-code hands out). */
async function shopCode(ctx: ServiceContext): Promise<string> {
  for (;;) {
    const code = `${SHOP_CODE_PREFIX}${String(await nextShopCodeNumber(ctx.db)).padStart(6, "0")}`;
    if (!(await barcodeTaken(ctx.db, code))) return code;
  }
}

/**
 * A card added to the catalogue from a feed's printing, in one transaction: the product made as
 * POST /api/products makes one (audited as a creation; 409 when the barcode exists), its market
 * ids and finish, and the printing's prices as that feed's for the run's day, so a trade-in line
 * for it is offered market x percent at once.
 */
export async function productFromFeed(ctx: ServiceContext, body: z.output<typeof productFromFeedBodySchema>): Promise<Product> {
  requirePermission(ctx, ...COUNTER);
  const card = await feedPrinting(ctx.db, body.feed_id, body.run_id, body.seq);
  if (!card?.name) throw notFound("This printing is not in the feed's latest run: search again");
  const input: CreateProductInput = {
    barcode: body.barcode ?? (await shopCode(ctx)),
    product_name: card.name,
    vendor: body.vendor ?? vendorOf(card),
    release_year: null,
    quantity_on_hand: 0,
    set_name: card.set_name ?? card.set_code,
    card_number: card.number,
  };
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const product = await createProductIn(ctx, tx, afterCommit, input);
    await insertMarketIds(tx, product.id, card);
    await insertMarketPrice(tx, product.id, card, ctx.config.CURRENCY);
    return product;
  });
}
