import { type SQL, sql } from "drizzle-orm";
import type { MarketQuote, UnderMarketAnswer } from "../../../contract/market-views.js";
import type { Db } from "../../db/client.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";

/** Market prices where people look (the inventory's rows, the "priced under market" list, the stock at market). */

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

/**
 * Active, ungraded products whose price is under their latest market price, the most money at
 * stake first (the gap times the stock, at least one), a page of them, with the count and the sum
 * of all. Graded slabs are left out: a raw card's market price is not theirs.
 */
export async function underMarket(db: Db, currency: string, page: { limit: number; offset: number }): Promise<UnderMarketAnswer> {
  type Row = Omit<UnderMarketAnswer["products"][number], "product_id" | "at_stake"> & {
    total: number;
    total_at_stake: string | number | null;
    product_id: number | null;
    at_stake: string | number;
  };
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with under as (
        select p.id as product_id, p.barcode, p.product_name, p.quantity_on_hand, p.price, l.market, l.checked_on::text as checked_on,
          l.market - p.price as under_by,
          (round((l.market - p.price) * 1000.0 / l.market) / 10)::float8 as under_percent,
          (l.market - p.price)::bigint * greatest(p.quantity_on_hand, 1) as at_stake
        from products p
        join lateral ${latestMarketRow(sql`p.id`, currency)} l on true
        where p.is_active and p.grader is null and p.price is not null and l.market is not null and p.price < l.market
      ),
      totals as (select count(*)::int as total, sum(at_stake) as total_at_stake from under),
      shown as (select * from under order by at_stake desc, product_id limit ${page.limit} offset ${page.offset})
      select t.total, t.total_at_stake, shown.*
      from totals t left join shown on true
      order by shown.at_stake desc nulls last, shown.product_id`),
  );
  const first = rows[0];
  return {
    products: rows.flatMap(({ total: _t, total_at_stake: _s, product_id, at_stake, ...r }) =>
      product_id === null ? [] : [{ ...r, product_id, at_stake: Number(at_stake) }],
    ),
    total: first?.total ?? 0,
    total_at_stake: Number(first?.total_at_stake ?? 0),
  };
}
