import { sql } from "drizzle-orm";
import type { CounterFeedCard } from "../../../contract/counter.js";
import type { Db } from "../../db/client.js";
import { rowsOf } from "../../db/sql.js";

/**
 * The counter's own reads of the price feeds' printings (feed_cards of a run, written by the
 * prices module): what a card not yet in the catalogue is added from. Only each feed's latest
 * finished run, and only the row that prices the card as such (no condition, or Near Mint's),
 * as the prices module reads the market price (prices.repo.ts).
 */
const LATEST_RUNS = sql`
  select distinct on (feed_id) id, feed_id, day from price_feed_runs where status = 'done' order by feed_id, id desc`;

export async function feedCardsNamed(db: Db, q: string, limit: number): Promise<CounterFeedCard[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<CounterFeedCard>(
    await db.execute(sql`
      select r.feed_id, f.name as feed_name, c.run_id, c.seq, c.name, c.set_code, c.set_name, c.number, c.finish,
        c.tcgplayer_product_id, c.scryfall_id, c.pokemontcg_id, c.market
      from (${LATEST_RUNS}) r
      join price_feeds f on f.id = r.feed_id
      join feed_cards c on c.run_id = r.id
      where c.name ilike ${pattern} and (c.condition is null or c.condition = 'Near Mint')
      order by c.name, c.set_name, c.number_key, c.finish, f.name, c.seq limit ${limit}`),
  );
}

export interface FeedPrinting extends CounterFeedCard {
  day: string;
  low: number | null;
  mid: number | null;
  high: number | null;
  direct_low: number | null;
}

/** One printing of the feed's latest finished run, as the search named it (undefined when that run is no longer the latest, or no such card). */
export async function feedPrinting(db: Db, feedId: number, runId: number, seq: number): Promise<FeedPrinting | undefined> {
  const [row] = rowsOf<FeedPrinting>(
    await db.execute(sql`
      select r.feed_id, f.name as feed_name, c.run_id, c.seq, c.name, c.set_code, c.set_name, c.number, c.finish,
        c.tcgplayer_product_id, c.scryfall_id, c.pokemontcg_id, c.market, c.low, c.mid, c.high, c.direct_low, r.day::text as day
      from (${LATEST_RUNS}) r
      join price_feeds f on f.id = r.feed_id
      join feed_cards c on c.run_id = r.id
      where r.feed_id = ${feedId} and r.id = ${runId} and c.seq = ${seq}
        and (c.condition is null or c.condition = 'Near Mint')`),
  );
  return row;
}

/** The product's ids at the market and its finish (product_market), as a manager's linking sets them. */
export async function insertMarketIds(tx: Db, productId: number, card: FeedPrinting): Promise<void> {
  await tx.execute(sql`
    insert into product_market (product_id, tcgplayer_product_id, scryfall_id, pokemontcg_id, finish, updated_at)
    values (${productId}, ${card.tcgplayer_product_id}, ${card.scryfall_id}, ${card.pokemontcg_id}, ${card.finish}, now())`);
}

/** The printing's prices as the feed's for that product and the run's day, so its offer has a market price at once. */
export async function insertMarketPrice(tx: Db, productId: number, card: FeedPrinting, currency: string): Promise<void> {
  await tx.execute(sql`
    insert into market_prices (product_id, feed_id, day, checked_on, finish, currency, market, low, mid, high, direct_low, by_condition)
    values (${productId}, ${card.feed_id}, ${card.day}::date, ${card.day}::date, ${card.finish}, ${currency}, ${card.market}, ${card.low},
      ${card.mid}, ${card.high}, ${card.direct_low}, null)`);
}
