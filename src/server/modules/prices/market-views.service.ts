import type { MarketQuote, UnderMarketAnswer } from "../../../contract/market-views.js";
import type { ServiceContext } from "../../context.js";
import type { Database, Db } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { requireAccess, requirePermission } from "../../permissions.js";
import {
  type IdSpan,
  marketQuotes,
  productIdBounds,
  type StockAtMarket,
  stockAtMarketIn,
  underMarketDetails,
  underMarketIn,
} from "./market-views.repo.js";

/** Product ids per statement when a view reads the whole catalogue (a few milliseconds each on the embedded database). */
const SPAN_IDS = 2_500;

/**
 * Calls `read` for each span of product ids, in order. Each statement first waits for the people
 * queued for the embedded database's one connection (yieldToPeople), as bulk work does: a whole
 * catalogue's market prices read in one statement held every tap for a third of a second.
 */
async function eachSpan(database: Database, db: Db, read: (span: IdSpan) => Promise<void>): Promise<void> {
  await yieldToPeople(database);
  const bounds = await productIdBounds(db);
  if (!bounds) return;
  for (let from = bounds.min; from <= bounds.max; from += SPAN_IDS) {
    await yieldToPeople(database);
    await read({ from, to: Math.min(bounds.max, from + SPAN_IDS - 1) });
  }
}

/**
 * The latest market price of each of these products (a screen's rows), in the shop's currency.
 * Every signed-in user, as a product's own market prices (GET /api/products/{id}/market-prices);
 * a token with `products:read`.
 */
export async function quotesFor(ctx: ServiceContext, ids: number[]): Promise<{ quotes: MarketQuote[] }> {
  requireAccess(ctx.actor, undefined, "products:read");
  return { quotes: await marketQuotes(ctx.db, ids, ctx.config.CURRENCY) };
}

/**
 * Products priced under their market price, the most money at stake first, a page of them with
 * the count and the sum of all: managers and super_admin (`prices:write` for tokens).
 */
export async function pricedUnderMarket(
  ctx: ServiceContext,
  database: Database,
  page: { limit: number; offset: number },
): Promise<UnderMarketAnswer> {
  requirePermission(ctx, "canManageIntegrations", "prices:write");
  const all: Array<{ product_id: number; at_stake: number }> = [];
  await eachSpan(database, ctx.db, async (span) => {
    for (const row of await underMarketIn(ctx.db, ctx.config.CURRENCY, span)) all.push(row);
  });
  all.sort((a, b) => b.at_stake - a.at_stake || a.product_id - b.product_id);
  const shown = all.slice(page.offset, page.offset + page.limit).map((r) => r.product_id);
  await yieldToPeople(database);
  return {
    // A product whose price or market price changed since its span was read drops out of the page.
    products: await underMarketDetails(ctx.db, ctx.config.CURRENCY, shown),
    total: all.length,
    total_at_stake: all.reduce((sum, p) => sum + p.at_stake, 0),
  };
}

/**
 * The stock now at market: each product in stock (disabled ones too, as the value at price
 * counts them) at its latest market price in `currency`; graded products and those without one
 * count nothing and are counted apart. For the stock value report (reports.service.ts).
 */
export async function stockAtMarket(database: Database, db: Db, currency: string): Promise<StockAtMarket> {
  const sum: StockAtMarket = { at_market: 0, products_priced: 0, units_priced: 0, products_without_market: 0, units_without_market: 0 };
  await eachSpan(database, db, async (span) => {
    const part = await stockAtMarketIn(db, currency, span);
    for (const key of Object.keys(sum) as Array<keyof StockAtMarket>) sum[key] += part[key];
  });
  return sum;
}
