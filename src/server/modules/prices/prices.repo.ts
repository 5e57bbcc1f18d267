import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";
import type { FeedRecord } from "./feeds/feed-record.js";

/** A feed's printings in the shop's currency, staged under its run (feed_cards). */
export async function stageCards(db: Db, runId: number, firstSeq: number, records: FeedRecord[]): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r, i) => ({
    seq: firstSeq + i,
    tcgplayer_product_id: r.tcgplayer_product_id ?? null,
    scryfall_id: r.scryfall_id ?? null,
    pokemontcg_id: r.pokemontcg_id ?? null,
    barcode: r.barcode ?? null,
    external_source: r.external_id?.source ?? null,
    external_id: r.external_id?.id ?? null,
    name: r.name ?? null,
    set_code: r.set_code ?? null,
    set_name: r.set_name ?? null,
    number: r.number ?? null,
    finish: r.finish,
    condition: r.condition ?? null,
    market: r.prices.market ?? null,
    low: r.prices.low ?? null,
    mid: r.prices.mid ?? null,
    high: r.prices.high ?? null,
    direct_low: r.prices.direct_low ?? null,
  }));
  await db.execute(sql`
    insert into feed_cards (run_id, seq, tcgplayer_product_id, scryfall_id, pokemontcg_id, barcode, external_source, external_id,
      name, set_code, set_name, number, number_key, set_code_key, set_name_key, finish, condition, market, low, mid, high, direct_low)
    select ${runId}, c.seq, c.tcgplayer_product_id, c.scryfall_id, c.pokemontcg_id, c.barcode, c.external_source, c.external_id,
      c.name, c.set_code, c.set_name, c.number, card_number_key(c.number), set_key(c.set_code), set_key(c.set_name),
      c.finish, c.condition, c.market, c.low, c.mid, c.high, c.direct_low
    from json_to_recordset(${jsonReadOnce(rows)}) as c(seq int, tcgplayer_product_id int, scryfall_id text, pokemontcg_id text,
      barcode text, external_source text, external_id text, name text, set_code text, set_name text, number text,
      finish text, condition text, market int, low int, mid int, high int, direct_low int)`);
}

/** Product ids in order, one page of at most `limit` after `after` (the matching walks the catalogue in pages). */
export async function productIdRange(db: Db, after: number, limit: number): Promise<{ last: number } | null> {
  const [row] = rowsOf<{ last: number | null }>(
    await db.execute(sql`select max(id) as last from (select id from products where id > ${after} order by id limit ${limit}) p`),
  );
  return row?.last == null ? null : { last: Number(row.last) };
}

/**
 * Matches the products with ids in (from, to] to the run's cards and records their prices.
 * By id first (TCGplayer, Scryfall, pokemontcg.io, barcode, another source's id), then, for a
 * product no id links, by set (code or name) + collector number; always the product's finish.
 * A product matching several cards takes the highest of each price. Prices equal to the feed's
 * last recorded ones only move `checked_on`; others add the day's row (or replace it, on a second
 * run the same day). Returns how many products matched.
 */
export async function matchAndRecord(
  db: Db,
  run: { id: number; feedId: number; day: string; currency: string },
  from: number,
  to: number,
): Promise<number> {
  const result = await db.execute(sql`
    with pm as (
      select p.id, p.barcode, set_key(p.set_name) as set_key, card_number_key(p.card_number) as number_key,
        coalesce(m.finish, 'normal') as finish, m.tcgplayer_product_id, m.scryfall_id, m.pokemontcg_id, m.external_ids
      from products p left join product_market m on m.product_id = p.id
      where p.id > ${from} and p.id <= ${to}
    ),
    by_id as (
      select pm.id as product_id, c.seq from pm join feed_cards c
        on c.run_id = ${run.id} and c.tcgplayer_product_id = pm.tcgplayer_product_id and c.finish = pm.finish
      union
      select pm.id, c.seq from pm join feed_cards c on c.run_id = ${run.id} and c.scryfall_id = pm.scryfall_id and c.finish = pm.finish
      union
      select pm.id, c.seq from pm join feed_cards c on c.run_id = ${run.id} and c.pokemontcg_id = pm.pokemontcg_id and c.finish = pm.finish
      union
      select pm.id, c.seq from pm join feed_cards c on c.run_id = ${run.id} and c.barcode = pm.barcode and c.finish = pm.finish
      union
      select pm.id, c.seq from pm cross join lateral jsonb_each_text(pm.external_ids) e
        join feed_cards c on c.run_id = ${run.id} and c.external_source = e.key and c.external_id = e.value and c.finish = pm.finish
    ),
    by_set as (
      select pm.id as product_id, c.seq from pm join feed_cards c
        on c.run_id = ${run.id} and c.number_key = pm.number_key and c.set_code_key = pm.set_key and c.finish = pm.finish
        where not exists (select 1 from by_id where by_id.product_id = pm.id)
      union
      select pm.id, c.seq from pm join feed_cards c
        on c.run_id = ${run.id} and c.number_key = pm.number_key and c.set_name_key = pm.set_key and c.finish = pm.finish
        where not exists (select 1 from by_id where by_id.product_id = pm.id)
    ),
    matched as (select product_id, seq from by_id union select product_id, seq from by_set),
    seen as (
      select mt.product_id, min(c.finish) as finish,
        max(c.market) filter (where c.condition is null or c.condition = 'Near Mint') as market,
        max(c.low) filter (where c.condition is null or c.condition = 'Near Mint') as low,
        max(c.mid) filter (where c.condition is null or c.condition = 'Near Mint') as mid,
        max(c.high) filter (where c.condition is null or c.condition = 'Near Mint') as high,
        max(c.direct_low) filter (where c.condition is null or c.condition = 'Near Mint') as direct_low,
        jsonb_object_agg(c.condition, coalesce(c.market, c.mid, c.low)) filter (where c.condition is not null and coalesce(c.market, c.mid, c.low) is not null) as by_condition
      from matched mt join feed_cards c on c.run_id = ${run.id} and c.seq = mt.seq
      group by mt.product_id
    ),
    latest as (
      select distinct on (mp.product_id) mp.product_id, mp.day, mp.market, mp.low, mp.mid, mp.high, mp.direct_low, mp.by_condition, mp.finish, mp.currency
      from market_prices mp where mp.feed_id = ${run.feedId} and mp.product_id > ${from} and mp.product_id <= ${to}
      order by mp.product_id, mp.day desc
    ),
    unchanged as (
      update market_prices mp set checked_on = ${run.day}
      from seen s join latest l using (product_id)
      where mp.product_id = s.product_id and mp.feed_id = ${run.feedId} and mp.day = l.day
        and (s.market, s.low, s.mid, s.high, s.direct_low, s.by_condition, s.finish, ${run.currency}::text)
          is not distinct from (l.market, l.low, l.mid, l.high, l.direct_low, l.by_condition, l.finish, l.currency)
      returning mp.product_id
    ),
    recorded as (
      insert into market_prices (product_id, feed_id, day, checked_on, finish, currency, market, low, mid, high, direct_low, by_condition)
      select s.product_id, ${run.feedId}, ${run.day}, ${run.day}, s.finish, ${run.currency}, s.market, s.low, s.mid, s.high, s.direct_low, s.by_condition
      from seen s where not exists (select 1 from unchanged u where u.product_id = s.product_id)
      on conflict (product_id, feed_id, day) do update set checked_on = excluded.checked_on, finish = excluded.finish,
        currency = excluded.currency, market = excluded.market, low = excluded.low, mid = excluded.mid, high = excluded.high,
        direct_low = excluded.direct_low, by_condition = excluded.by_condition
      returning product_id
    )
    select (select count(*) from seen) as matched, (select count(*) from recorded) + (select count(*) from unchanged) as written`);
  const [row] = rowsOf<{ matched: string | number }>(result);
  return Number(row?.matched ?? 0);
}

/** A product's latest market prices: from the feed that saw them last (the shop's currency only). */
export interface LatestMarket {
  product_id: number;
  feed_id: number;
  feed_name: string;
  day: string;
  checked_on: string;
  finish: string;
  currency: string;
  market: number | null;
  low: number | null;
  mid: number | null;
  high: number | null;
  direct_low: number | null;
  by_condition: Record<string, number> | null;
}

const LATEST = sql`
  select distinct on (mp.product_id) mp.product_id, mp.feed_id, f.name as feed_name, mp.day::text as day, mp.checked_on::text as checked_on,
    mp.finish, mp.currency, mp.market, mp.low, mp.mid, mp.high, mp.direct_low, mp.by_condition
  from market_prices mp join price_feeds f on f.id = mp.feed_id`;

export async function latestMarketFor(db: Db, productIds: number[], currency: string): Promise<LatestMarket[]> {
  if (productIds.length === 0) return [];
  return rowsOf<LatestMarket>(
    await db.execute(sql`${LATEST}
      where mp.product_id = any(array(select json_array_elements_text(${jsonReadOnce(productIds)})::int)) and mp.currency = ${currency}
      order by mp.product_id, mp.checked_on desc, mp.day desc, mp.feed_id`),
  );
}
