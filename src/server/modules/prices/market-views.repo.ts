import { type SQL, sql } from "drizzle-orm";
import type { MarketQuote, UnderMarketProduct } from "../../../contract/market-views.js";
import type { Db } from "../../db/client.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";

/**
 * Market prices where people look (the inventory's rows, the "priced under market" list, the
 * stock at market). The last two read the whole catalogue: a span of product ids per statement
 * (market-views.service.ts walks them), so on the embedded database a tap waits for one span at most.
 */

/**
 * The latest market price row of the product `productId` names, in `currency`: the one a feed
 * confirmed last, over the last year, as GET /api/products/{id}/market-prices answers `latest`
 * (and in the rules' order of rows: newest day, then the lowest feed). A lateral subquery: one
 * look-up in market_prices' primary key (product_id first) per product.
 */
export function latestMarketRow(productId: SQL, currency: string): SQL {
  return sql`(
    select mp.market, mp.day, mp.checked_on from market_prices mp
    where mp.product_id = ${productId} and mp.currency = ${currency} and mp.checked_on >= current_date - 366
    order by mp.checked_on desc, mp.day desc, mp.feed_id limit 1)`;
}

/** The latest market price of each of these products that has one (with a `market` price). */
export async function marketQuotes(db: Db, ids: number[], currency: string): Promise<MarketQuote[]> {
  if (ids.length === 0) return [];
  return rowsOf<MarketQuote>(
    await db.execute(sql`
      select p.id as product_id, l.market, ${currency}::text as currency, l.day::text as day, l.checked_on::text as checked_on
      from products p
      join lateral ${latestMarketRow(sql`p.id`, currency)} l on true
      where p.id = any(array(select json_array_elements_text(${jsonReadOnce(ids)})::int)) and l.market is not null
      order by p.id`),
  );
}

/** The lowest and highest product id (none: no products), for walking the catalogue a span of ids at a time. */
export async function productIdBounds(db: Db): Promise<{ min: number; max: number } | undefined> {
  const [row] = rowsOf<{ min: number | null; max: number | null }>(
    await db.execute(sql`select min(id) as min, max(id) as max from products`),
  );
  return row && row.min !== null && row.max !== null ? { min: row.min, max: row.max } : undefined;
}

/** Product ids from `from` to `to`, both included. */
export interface IdSpan {
  from: number;
  to: number;
}

/**
 * The latest market price row of each product in the span that has one in `currency` (the rule
 * of latestMarketRow), in one pass over the span's rows of market_prices (its primary key starts
 * with product_id): for many products, cheaper than a look-up per product.
 */
function latestMarketIn(currency: string, span: IdSpan): SQL {
  return sql`(
    select distinct on (mp.product_id) mp.product_id, mp.market, mp.day, mp.checked_on from market_prices mp
    where mp.product_id between ${span.from} and ${span.to} and mp.currency = ${currency} and mp.checked_on >= current_date - 366
    order by mp.product_id, mp.checked_on desc, mp.day desc, mp.feed_id)`;
}

/** Which products are under market (active, ungraded, priced under their latest market price), as the list is sorted. */
const UNDER = sql`p.is_active and p.grader is null and p.price is not null and l.market is not null and p.price < l.market`;
const AT_STAKE = sql`(l.market - p.price)::bigint * greatest(p.quantity_on_hand, 1)`;

/**
 * The span's products under market, with the money at stake (the gap times the stock, at least
 * one): only what the list is sorted by, the page's details come after (underMarketDetails).
 * Graded slabs are left out: a raw card's market price is not theirs.
 */
export async function underMarketIn(db: Db, currency: string, span: IdSpan): Promise<Array<{ product_id: number; at_stake: number }>> {
  const rows = rowsOf<{ product_id: number; at_stake: string | number }>(
    await db.execute(sql`
      select p.id as product_id, ${AT_STAKE} as at_stake
      from ${latestMarketIn(currency, span)} l join products p on p.id = l.product_id
      where p.id between ${span.from} and ${span.to} and ${UNDER}`),
  );
  return rows.map((r) => ({ product_id: r.product_id, at_stake: Number(r.at_stake) }));
}

/** These products, if still under market, with their price, market price, the gap and the money at stake, in the order given. */
export async function underMarketDetails(db: Db, currency: string, ids: number[]): Promise<UnderMarketProduct[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<UnderMarketProduct & { at_stake: string | number }>(
    await db.execute(sql`
      select p.id as product_id, p.barcode, p.product_name, p.quantity_on_hand, p.price, l.market, l.checked_on::text as checked_on,
        l.market - p.price as under_by,
        (round((l.market - p.price) * 1000.0 / l.market) / 10)::float8 as under_percent,
        ${AT_STAKE} as at_stake
      from products p
      join lateral ${latestMarketRow(sql`p.id`, currency)} l on true
      where p.id = any(array(select json_array_elements_text(${jsonReadOnce(ids)})::int)) and ${UNDER}`),
  );
  const byId = new Map(rows.map((r) => [r.product_id, { ...r, at_stake: Number(r.at_stake) }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The stock at market of the span's products in stock (see stockAtMarket in market-views.service.ts). */
export interface StockAtMarket {
  at_market: number;
  products_priced: number;
  units_priced: number;
  products_without_market: number;
  units_without_market: number;
}

/**
 * The span's products with stock (disabled ones too, as the value at price counts them): units
 * times the latest market price in `currency`; graded products and those without a market price
 * count nothing and are counted apart.
 */
export async function stockAtMarketIn(db: Db, currency: string, span: IdSpan): Promise<StockAtMarket> {
  const [r] = rowsOf<Record<keyof StockAtMarket, string | number | null>>(
    await db.execute(sql`
      select coalesce(sum(p.quantity_on_hand::bigint * l.market) filter (where x.priced), 0) as at_market,
        count(*) filter (where x.priced) as products_priced,
        coalesce(sum(p.quantity_on_hand) filter (where x.priced), 0) as units_priced,
        count(*) filter (where not x.priced) as products_without_market,
        coalesce(sum(p.quantity_on_hand) filter (where not x.priced), 0) as units_without_market
      from products p
      left join ${latestMarketIn(currency, span)} l on l.product_id = p.id
      cross join lateral (select p.grader is null and l.market is not null as priced) x
      where p.id between ${span.from} and ${span.to} and p.quantity_on_hand > 0`),
  );
  const num = (v: string | number | null | undefined) => Number(v ?? 0);
  return {
    at_market: num(r?.at_market),
    products_priced: num(r?.products_priced),
    units_priced: num(r?.units_priced),
    products_without_market: num(r?.products_without_market),
    units_without_market: num(r?.units_without_market),
  };
}
