import type { MarketQuote, UnderMarketAnswer } from "../../../contract/market-views.js";
import type { ServiceContext } from "../../context.js";
import { requireAccess, requirePermission } from "../../permissions.js";
import { marketQuotes, underMarket } from "./market-views.repo.js";

/**
 * The latest market price of each of these products (a screen's rows), in the shop's currency.
 * Every signed-in user, as a product's own market prices (GET /api/products/{id}/market-prices);
 * a token with `products:read`.
 */
export async function quotesFor(ctx: ServiceContext, ids: number[]): Promise<{ quotes: MarketQuote[] }> {
  requireAccess(ctx.actor, undefined, "products:read");
  return { quotes: await marketQuotes(ctx.db, ids, ctx.config.CURRENCY) };
}

/** Products priced under their market price, the most money at stake first: managers and super_admin (`prices:write` for tokens). */
export async function pricedUnderMarket(ctx: ServiceContext, page: { limit: number; offset: number }): Promise<UnderMarketAnswer> {
  requirePermission(ctx, "canManageIntegrations", "prices:write");
  return underMarket(ctx.db, ctx.config.CURRENCY, page);
}
