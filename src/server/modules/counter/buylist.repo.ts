import { and, asc, isNull, sql } from "drizzle-orm";
import type { Payout } from "../../../contract/counter.js";
import type { Db } from "../../db/client.js";
import { customers, tradeIns } from "../../db/schema.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";
import type { OfferRow, TradeInRow } from "./counter.repo.js";

/** The public buylist's statements (issue 40): what the shop is buying, and a customer's submission. */

export type BuylistRow = OfferRow & { card_number: string | null };

/**
 * A page of the products the shop is buying, by name: active, not darklisted, with a buy limit
 * above the stock on hand and a market price (the latest row a feed confirmed over the last year,
 * as counter.repo.ts offerRows reads it). `q` matches the name or the set (any case). One row more
 * than the page is read to tell whether more follow. The rows hold the stock and limit for the
 * offer's rule: the service never answers them.
 */
export async function buylistRows(
  db: Db,
  f: { q: string | undefined; darklist: number[]; currency: string; limit: number; offset: number },
): Promise<BuylistRow[]> {
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return rowsOf<BuylistRow>(
    await db.execute(sql`
      select p.id, p.product_name, p.vendor, p.set_name, p.card_number, p.quantity_on_hand, p.is_active, bl.buy_limit,
        l.market, l.by_condition
      from products p
      join product_buy_limits bl on bl.product_id = p.id and bl.buy_limit > p.quantity_on_hand
      join lateral (
        select mp.market, mp.by_condition from market_prices mp
        where mp.product_id = p.id and mp.currency = ${f.currency} and mp.checked_on >= current_date - 366
        order by mp.checked_on desc, mp.day desc, mp.feed_id limit 1) l on l.market is not null
      where p.is_active
        and p.id <> all(array(select json_array_elements_text(${jsonReadOnce(f.darklist)})::int))
        and (${like}::text is null or p.product_name ilike ${like}::text or p.set_name ilike ${like}::text)
      order by lower(p.product_name), p.id
      limit ${f.limit + 1} offset ${f.offset}`),
  );
}

/** The customer not erased with this email (any case), the oldest first; undefined when none. */
export async function customerByEmail(tx: Db, email: string): Promise<{ id: number } | undefined> {
  const [row] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(sql`lower(${customers.email}) = lower(${email})`, isNull(customers.erasedAt)))
    .orderBy(asc(customers.id))
    .limit(1);
  return row;
}

/** A submission's trade-in: a draft marked online, made by no user. */
export async function insertOnlineTradeIn(
  tx: Db,
  head: { customerId: number; payout: Payout; cashCents: number; creditCents: number; note: string | null },
): Promise<TradeInRow> {
  const [row] = await tx
    .insert(tradeIns)
    .values({ ...head, source: "online", createdById: null, createdBy: "Online buylist" })
    .returning();
  if (!row) throw new Error("trade-in insert returned nothing");
  return row;
}
