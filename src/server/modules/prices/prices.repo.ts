import { type SQL, sql } from "drizzle-orm";
import type { FeedFormat, PriceKind } from "../../../contract/market.js";
import type { PriceStep } from "../../../contract/pricing-rules.js";
import type { Condition } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { jsonParam, jsonReadOnce, rowsOf } from "../../db/sql.js";
import { withTransaction } from "../../db/tx.js";
import type { CardKeys } from "./feed-rows.js";

/** A batch of a feed's printings, staged under its run (feed_cards): `rows` is JSON text of StagedRow (feed-rows.ts). */
export async function stageCards(db: Db, runId: number, rows: string): Promise<void> {
  await db.execute(sql`
    insert into feed_cards (run_id, seq, tcgplayer_product_id, scryfall_id, pokemontcg_id, barcode, external_source, external_id,
      name, set_code, set_name, number, number_key, set_code_key, set_name_key, finish, condition, market, low, mid, high, direct_low)
    select ${runId}, c.seq, c.tcgplayer_product_id, c.scryfall_id, c.pokemontcg_id, c.barcode, c.external_source, c.external_id,
      c.name, c.set_code, c.set_name, c.number, card_number_key(c.number), set_key(c.set_code), set_key(c.set_name),
      c.finish, c.condition, c.market, c.low, c.mid, c.high, c.direct_low
    from json_to_recordset(${rows}::text::json) as c(seq int, tcgplayer_product_id int, scryfall_id text, pokemontcg_id text,
      barcode text, external_source text, external_id text, name text, set_code text, set_name text, number text,
      finish text, condition text, market int, low int, mid int, high int, direct_low int)`);
}

/**
 * The catalogue cut in pages of `size` products by id, up to `count` pages after `after`: each
 * page's last id, in order (fewer when the catalogue ends; none past its end). One statement for
 * many pages: the matching and the rules walk the catalogue a range of ids at a time.
 */
export async function productPages(db: Db, after: number, size: number, count: number): Promise<number[]> {
  const rows = rowsOf<{ last: number | string }>(
    await db.execute(sql`
      select max(id) as last from (
        select id, (row_number() over (order by id) - 1) / ${size} as page
        from (select id from products where id > ${after} order by id limit ${size * count}) ids
      ) numbered group by page order by page`),
  );
  return rows.map((r) => Number(r.last));
}

/**
 * The run's cards a product (`pm`) matches by one key: looked up in that key's index for each
 * product that has the key (`offset 0` keeps the lookup per product: joined, the planner would
 * read the whole run's cards into a hash for every page).
 */
const cardsBy = (runId: number, has: SQL, on: SQL, products: "pm" | "unlinked" = "pm") => sql`
  select pm.id as product_id, c.seq from ${sql.raw(products)} pm cross join lateral (
    select c.seq from feed_cards c where c.run_id = ${runId} and ${on} and c.finish = pm.finish offset 0
  ) c where ${has}`;

const unionOf = (parts: SQL[]) => sql.join(parts, sql` union `);

/**
 * A statement PostgreSQL would otherwise compile first (JIT): the matching's estimated cost, the
 * per-product lookups counted at their worst, passes jit_above_cost, and compiling its plan took
 * most of its time (0.7 of 0.9 s a page of 2,000). The embedded database has no JIT: no change.
 */
function withoutJit<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return withTransaction(db, async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return work(tx);
  });
}

/**
 * Matches the products with ids in (from, to] to the run's cards and records their prices.
 * By id first (TCGplayer, Scryfall, pokemontcg.io, barcode, another source's id), then, for a
 * product no id links, by set (code or name) + collector number; always the product's finish.
 * A product matching several cards takes the highest of each price. Prices equal to the feed's
 * last recorded ones only move `checked_on` (nothing is written when it is already the run's
 * day); others add the day's row (or replace it, on a second run the same day). Returns how many
 * products matched.
 */
export async function matchAndRecord(
  db: Db,
  run: { id: number; feedId: number; day: string; currency: string; keys: CardKeys },
  from: number,
  to: number,
): Promise<number> {
  const { keys } = run;
  const byIds: SQL[] = [];
  if (keys.tcgplayer)
    byIds.push(cardsBy(run.id, sql`pm.tcgplayer_product_id is not null`, sql`c.tcgplayer_product_id = pm.tcgplayer_product_id`));
  if (keys.scryfall) byIds.push(cardsBy(run.id, sql`pm.scryfall_id is not null`, sql`c.scryfall_id = pm.scryfall_id`));
  if (keys.pokemontcg) byIds.push(cardsBy(run.id, sql`pm.pokemontcg_id is not null`, sql`c.pokemontcg_id = pm.pokemontcg_id`));
  if (keys.barcode) byIds.push(cardsBy(run.id, sql`pm.barcode is not null`, sql`c.barcode = pm.barcode`));
  if (keys.external)
    byIds.push(sql`
      select pm.id as product_id, c.seq from pm cross join lateral jsonb_each_text(pm.external_ids) e
        cross join lateral (
          select c.seq from feed_cards c
          where c.run_id = ${run.id} and c.external_source = e.key and c.external_id = e.value and c.finish = pm.finish offset 0
        ) c
      where pm.external_ids <> '{}'::jsonb`);
  const bySets: SQL[] = [];
  if (keys.setCode) bySets.push(cardsBy(run.id, sql`true`, sql`c.number_key = pm.number_key and c.set_code_key = pm.set_key`, "unlinked"));
  if (keys.setName) bySets.push(cardsBy(run.id, sql`true`, sql`c.number_key = pm.number_key and c.set_name_key = pm.set_key`, "unlinked"));
  const none = sql`select null::int as product_id, null::int as seq where false`;
  const result = await withoutJit(db, (tx) =>
    tx.execute(sql`
    with pm as (
      select p.id, p.barcode, p.set_name, p.card_number, coalesce(m.finish, 'normal') as finish,
        m.tcgplayer_product_id, m.scryfall_id, m.pokemontcg_id, coalesce(m.external_ids, '{}') as external_ids
      from products p left join product_market m on m.product_id = p.id and m.product_id > ${from} and m.product_id <= ${to}
      where p.id > ${from} and p.id <= ${to}
    ),
    by_id as (${byIds.length ? unionOf(byIds) : none}),
    unlinked as (
      select pm.id, pm.finish, set_key(pm.set_name) as set_key, card_number_key(pm.card_number) as number_key from pm
      where pm.set_name is not null and pm.card_number is not null and not exists (select 1 from by_id where by_id.product_id = pm.id)
    ),
    by_set as (${bySets.length ? unionOf(bySets) : none}),
    matched as (select product_id, seq from by_id union select product_id, seq from by_set),
    seen as (
      select mt.product_id, min(c.finish) as finish,
        max(c.market) filter (where c.condition is null or c.condition = 'Near Mint') as market,
        max(c.low) filter (where c.condition is null or c.condition = 'Near Mint') as low,
        max(c.mid) filter (where c.condition is null or c.condition = 'Near Mint') as mid,
        max(c.high) filter (where c.condition is null or c.condition = 'Near Mint') as high,
        max(c.direct_low) filter (where c.condition is null or c.condition = 'Near Mint') as direct_low,
        jsonb_object_agg(c.condition, coalesce(c.market, c.mid, c.low)) filter (where c.condition is not null and coalesce(c.market, c.mid, c.low) is not null) as by_condition
      from matched mt cross join lateral (select * from feed_cards c where c.run_id = ${run.id} and c.seq = mt.seq offset 0) c
      group by mt.product_id
    ),
    latest as (
      select distinct on (mp.product_id) mp.product_id, mp.day, mp.checked_on, mp.market, mp.low, mp.mid, mp.high, mp.direct_low,
        mp.by_condition, mp.finish, mp.currency
      from market_prices mp where mp.feed_id = ${run.feedId} and mp.product_id > ${from} and mp.product_id <= ${to}
      order by mp.product_id, mp.day desc
    ),
    unchanged as (
      select s.product_id, l.day, l.checked_on from seen s join latest l using (product_id)
      where (s.market, s.low, s.mid, s.high, s.direct_low, s.by_condition, s.finish, ${run.currency}::text)
        is not distinct from (l.market, l.low, l.mid, l.high, l.direct_low, l.by_condition, l.finish, l.currency)
    ),
    checked as (
      update market_prices mp set checked_on = ${run.day}
      from unchanged u
      where mp.product_id = u.product_id and mp.feed_id = ${run.feedId} and mp.day = u.day and u.checked_on <> ${run.day}::date
    ),
    recorded as (
      insert into market_prices (product_id, feed_id, day, checked_on, finish, currency, market, low, mid, high, direct_low, by_condition)
      select s.product_id, ${run.feedId}, ${run.day}, ${run.day}, s.finish, ${run.currency}, s.market, s.low, s.mid, s.high, s.direct_low, s.by_condition
      from seen s where not exists (select 1 from unchanged u where u.product_id = s.product_id)
      on conflict (product_id, feed_id, day) do update set checked_on = excluded.checked_on, finish = excluded.finish,
        currency = excluded.currency, market = excluded.market, low = excluded.low, mid = excluded.mid, high = excluded.high,
        direct_low = excluded.direct_low, by_condition = excluded.by_condition
    )
    select count(*) as matched from seen`),
  );
  const [row] = rowsOf<{ matched: string | number }>(result);
  return Number(row?.matched ?? 0);
}

export interface ProposalRow {
  product_id: number;
  old_price: number | null;
  new_price: number;
  market: number;
  estimated: boolean;
  change_percent: number | null;
  at_stake: number;
  big: boolean;
  steps: PriceStep[];
  based_on: string;
}

export interface PricedProduct {
  id: number;
  price: number | null;
  cost: number | null;
  condition: Condition | null;
  vendor: string;
  set_name: string | null;
  quantity_on_hand: number;
  updated_at: string;
  price_frozen: boolean;
  market: number | null;
  low: number | null;
  mid: number | null;
  high: number | null;
  direct_low: number | null;
  by_condition: Partial<Record<Condition, number>> | null;
  /** The product's pending proposal, as saveProposals stores one (a run making it again leaves it be). */
  pending: Omit<ProposalRow, "product_id"> | null;
}

/** The products with ids in (after, last] the rules price: active, ungraded, with their latest market price in `currency`. */
export async function pricedProducts(
  db: Db,
  page: { after: number; last: number; kind: PriceKind; currency: string },
): Promise<PricedProduct[]> {
  return rowsOf<PricedProduct>(
    await db.execute(sql`
      select p.id, p.price, p.cost, p.condition, p.vendor, p.set_name, p.quantity_on_hand,
        to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at,
        coalesce(m.price_frozen, false) as price_frozen,
        l.market, l.low, l.mid, l.high, l.direct_low, l.by_condition,
        case when pp.id is not null then json_build_object('old_price', pp.old_price, 'new_price', pp.new_price, 'market', pp.market,
          'estimated', pp.estimated, 'change_percent', pp.change_percent, 'at_stake', pp.at_stake, 'big', pp.big, 'steps', pp.steps,
          'based_on', to_char(pp.based_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) end as pending
      from products p
      left join product_market m on m.product_id = p.id and m.product_id > ${page.after} and m.product_id <= ${page.last}
      left join price_proposals pp on pp.product_id = p.id and pp.status = 'pending'
        and pp.product_id > ${page.after} and pp.product_id <= ${page.last}
      join lateral (
        select ${sql.raw(page.kind)} as market, low, mid, high, direct_low, by_condition from market_prices mp
        where mp.product_id = p.id and mp.currency = ${page.currency}
        order by mp.checked_on desc, mp.day desc, mp.feed_id limit 1
      ) l on true
      where p.id > ${page.after} and p.id <= ${page.last} and p.is_active and p.grader is null`),
  );
}

/**
 * Pending proposals made anew, in one statement (the caller leaves out those it found the same:
 * they are left be). A proposal of the same new price
 * from the same product (the `updated_at` it was made from) stays, with its id (a manager accepting
 * by ids while a feed runs gets what was shown), its figures refreshed when they moved; one whose
 * new price or basis changed is rewritten under a new id (accepting the old id finds nothing
 * rather than applying a price nobody saw); the pending ones of `superseded`, products no longer
 * proposed (priced right now), are superseded.
 */
export async function saveProposals(db: Db, superseded: number[], proposals: ProposalRow[], runId: number | null): Promise<void> {
  await db.execute(sql`
    with c as (
      select * from json_to_recordset(${jsonReadOnce(proposals)}) as c(product_id int, old_price int, new_price int, market int,
        estimated boolean, change_percent float8, at_stake int, big boolean, steps jsonb, based_on timestamptz)
    ),
    gone as (
      update price_proposals pp set status = 'superseded', decided_at = now()
      where pp.status = 'pending' and pp.product_id = any(array(select json_array_elements_text(${jsonReadOnce(superseded)})::int))
    )
    insert into price_proposals as pp (product_id, run_id, old_price, new_price, market, estimated, change_percent, at_stake, big, steps, based_on)
    select c.product_id, ${runId}::int, c.old_price, c.new_price, c.market, c.estimated, c.change_percent, c.at_stake, c.big, c.steps, c.based_on
    from c
    on conflict (product_id) where status = 'pending' do update set
      id = case when (pp.new_price, pp.based_on) is distinct from (excluded.new_price, excluded.based_on)
        then nextval(pg_get_serial_sequence('price_proposals', 'id')) else pp.id end,
      created_at = case when (pp.new_price, pp.based_on) is distinct from (excluded.new_price, excluded.based_on)
        then now() else pp.created_at end,
      run_id = coalesce(excluded.run_id, pp.run_id), old_price = excluded.old_price, new_price = excluded.new_price,
      market = excluded.market, estimated = excluded.estimated, change_percent = excluded.change_percent,
      at_stake = excluded.at_stake, big = excluded.big, steps = excluded.steps, based_on = excluded.based_on
    where (pp.old_price, pp.new_price, pp.market, pp.estimated, pp.change_percent, pp.at_stake, pp.big, pp.steps, pp.based_on)
      is distinct from (excluded.old_price, excluded.new_price, excluded.market, excluded.estimated, excluded.change_percent,
        excluded.at_stake, excluded.big, excluded.steps, excluded.based_on)`);
}

/** A new run of the feed, on the shop's day: answers its id and day. */
export async function startRun(
  db: Db,
  run: { feedId: number; trigger: string; timezone: string; startedBy: number | null },
): Promise<{ id: number; day: string } | undefined> {
  const [row] = rowsOf<{ id: number; day: string }>(
    await db.execute(sql`
      insert into price_feed_runs (feed_id, status, trigger, day, started_by)
      values (${run.feedId}, 'running', ${run.trigger}, (now() at time zone ${run.timezone})::date, ${run.startedBy})
      returning id, day::text as day`),
  );
  return row;
}

/** A run that failed: its staged cards go; nothing else it would have changed has changed. */
export async function failRun(db: Db, runId: number, outcome: { error: string; records: number; problems: string[] }): Promise<void> {
  await db.execute(sql`delete from feed_cards where run_id = ${runId}`);
  await db.execute(sql`
    update price_feed_runs set status = 'failed', error = ${outcome.error}, records = ${outcome.records}, problems = ${jsonParam(outcome.problems)},
      finished_at = now() where id = ${runId}`);
}

/**
 * The planner's statistics of a table bulk work just filled (without them it plans for an empty
 * one), from a small sample (3,000 rows, not 30,000): rough figures plan the per-page statements
 * as well, and on the embedded database a tap waits for the whole analyze (0.2-0.6 s at 100,000 cards).
 */
export async function analyze(db: Db, table: "feed_cards" | "market_prices"): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx.execute(sql`set local default_statistics_target = 10`);
    await tx.execute(sql`analyze ${sql.raw(table)}`);
  });
}

/** The feed's other runs' cards go: this run's are the ones to link from now. */
export async function dropOtherRunsCards(db: Db, feedId: number, runId: number): Promise<void> {
  await db.execute(sql`
    delete from feed_cards where run_id in (select id from price_feed_runs where feed_id = ${feedId} and id <> ${runId})`);
}

export async function finishRun(
  db: Db,
  runId: number,
  outcome: { records: number; matched: number; proposals: number; problems: string[] },
): Promise<void> {
  await db.execute(sql`
    update price_feed_runs set status = 'done', records = ${outcome.records}, matched = ${outcome.matched}, proposals = ${outcome.proposals},
      problems = ${jsonParam(outcome.problems)}, finished_at = now() where id = ${runId}`);
}

/**
 * The feeds with a URL not fetched yet on the shop's day once its `at` time has passed, each
 * claimed for the day in the same statement: of several processes, one gets each.
 */
export async function claimDueFeeds(
  db: Db,
  at: string,
  timezone: string,
): Promise<Array<{ id: number; format: FeedFormat; url: string; products_url: string | null }>> {
  return rowsOf(
    await db.execute(sql`
      with today as (select (now() at time zone ${timezone}) as local)
      update price_feeds set fetched_on = (select local::date from today)
      where url is not null and fetched_on is distinct from (select local::date from today)
        and (select local::time from today) >= ${at}::time
      returning id, format, url, products_url`),
  );
}
