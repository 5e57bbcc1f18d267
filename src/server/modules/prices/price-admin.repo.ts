import { sql } from "drizzle-orm";
import type { FeedFormat } from "../../../contract/market.js";
import type { Role } from "../../../contract/permissions.js";
import type {
  CreateFeedBody,
  FeedCard,
  FeedRun,
  MarketIds,
  PriceFeed,
  PriceProposal,
  ProductMarket,
  UnmatchedAnswer,
} from "../../../contract/prices.js";
import type { PricingRules } from "../../../contract/pricing-rules.js";
import type { Db } from "../../db/client.js";
import { jsonParam, jsonReadOnce, rowsOf } from "../../db/sql.js";

/** Feeds, runs, proposals, rules and a product's market ids as the Prices screen and API read and write them. */

const ISO = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const RUN_COLUMNS = sql`r.id, r.feed_id, r.status, r.trigger, r.day::text as day, r.records, r.matched, r.proposals, r.problems, r.error,
  ${ISO("r.started_at")} as started_at, ${ISO("r.finished_at")} as finished_at`;

const bigints = (ids: number[]) => sql`array(select json_array_elements_text(${jsonReadOnce(ids)})::bigint)`;

/** Every feed with its last run, by name; or the one with this id. */
export async function feedsWithLastRun(db: Db, id?: number): Promise<PriceFeed[]> {
  return rowsOf<PriceFeed>(
    await db.execute(sql`
      select f.id, f.name, f.format, f.url, f.products_url, ${ISO("f.created_at")} as created_at,
        (select row_to_json(x) from (select ${RUN_COLUMNS} from price_feed_runs r where r.feed_id = f.id order by r.id desc limit 1) x) as last_run
      from price_feeds f ${id === undefined ? sql`` : sql`where f.id = ${id}`} order by f.name`),
  );
}

/** What a run needs of a feed. */
export interface FeedToRun {
  id: number;
  format: FeedFormat;
  url: string | null;
  products_url: string | null;
}

export async function insertFeed(db: Db, body: CreateFeedBody, createdBy: number): Promise<number | undefined> {
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into price_feeds (name, format, url, products_url, created_by)
      values (${body.name}, ${body.format}, ${body.url ?? null}, ${body.products_url ?? null}, ${createdBy}) returning id`),
  );
  return row?.id;
}

export async function findFeed(db: Db, id: number): Promise<FeedToRun | undefined> {
  const [feed] = rowsOf<FeedToRun>(await db.execute(sql`select id, format, url, products_url from price_feeds where id = ${id}`));
  return feed;
}

export async function findRun(db: Db, runId: number): Promise<FeedRun | undefined> {
  const [run] = rowsOf<FeedRun>(await db.execute(sql`select ${RUN_COLUMNS} from price_feed_runs r where r.id = ${runId}`));
  return run;
}

/** The feed's last run that finished (its cards are the ones kept). */
export async function lastDoneRun(db: Db, feedId: number): Promise<{ id: number; day: string } | undefined> {
  const [run] = rowsOf<{ id: number; day: string }>(
    await db.execute(sql`
      select id, day::text as day from price_feed_runs where feed_id = ${feedId} and status = 'done' order by id desc limit 1`),
  );
  return run;
}

export async function pendingProposals(
  db: Db,
  query: { limit: number; offset: number; bigOnly: boolean },
): Promise<{ proposals: PriceProposal[]; total: number; big: number }> {
  const proposals = rowsOf<PriceProposal>(
    await db.execute(sql`
      select pp.id::int as id, pp.product_id, p.barcode, p.product_name, p.quantity_on_hand, pp.old_price, pp.new_price, pp.market,
        pp.estimated, pp.change_percent, pp.at_stake, pp.big, pp.steps, ${ISO("pp.created_at")} as created_at
      from price_proposals pp join products p on p.id = pp.product_id
      where pp.status = 'pending' ${query.bigOnly ? sql`and pp.big` : sql``}
      order by pp.at_stake desc, pp.id
      limit ${query.limit} offset ${query.offset}`),
  );
  const [counts] = rowsOf<{ total: number; big: number }>(
    await db.execute(
      sql`select count(*)::int as total, (count(*) filter (where big))::int as big from price_proposals where status = 'pending'`,
    ),
  );
  return { proposals, total: counts?.total ?? 0, big: counts?.big ?? 0 };
}

/** A pending proposal with what an import row needs: the product as named now, the price, the proposal's base. */
export interface ProposalToAccept {
  id: number;
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: number | null;
  quantity_on_hand: number;
  is_active: boolean;
  new_price: number;
  based_on: string;
}

/** Pending proposals (all, or these ids) with what an import row needs. */
export async function proposalsToAccept(db: Db, ids: number[] | "all"): Promise<ProposalToAccept[]> {
  return rowsOf(
    await db.execute(sql`
      select pp.id::int as id, p.barcode, p.product_name, p.vendor, p.release_year, p.quantity_on_hand, p.is_active, pp.new_price,
        ${ISO("pp.based_on")} as based_on
      from price_proposals pp join products p on p.id = pp.product_id
      where pp.status = 'pending' ${ids === "all" ? sql`` : sql`and pp.id = any(${bigints(ids)})`} order by pp.id`),
  );
}

/**
 * The pending proposals auto-apply takes under `underPercent`: the move under that percent of the
 * old price in exact cents (as describeChange decides `auto`), not big, from a price above 0, of a
 * product whose price is not frozen (frozen since the proposal was made included).
 */
export async function autoApplicableProposals(db: Db, underPercent: number): Promise<number[]> {
  return rowsOf<{ id: number }>(
    await db.execute(sql`
      select pp.id::int as id from price_proposals pp left join product_market m on m.product_id = pp.product_id
      where pp.status = 'pending' and not pp.big and pp.old_price > 0 and not coalesce(m.price_frozen, false)
        and abs(pp.new_price::bigint - pp.old_price) * 100 < ${underPercent}::bigint * pp.old_price
      order by pp.id`),
  ).map((r) => r.id);
}

/** The user who last saved the rules, as they are now; undefined before any rules are saved or once that user is deleted. */
export async function rulesSaver(db: Db): Promise<{ id: number; username: string; role: Role; is_active: boolean } | undefined> {
  const [row] = rowsOf<{ id: number; username: string; role: Role; is_active: boolean }>(
    await db.execute(sql`
      select u.id, u.username, u.role, u.is_active from pricing_rules r join users u on u.id = r.updated_by where r.id = 1`),
  );
  return row;
}

/** Marks the proposals still pending as accepted by this import; answers how many were. */
export async function markAccepted(db: Db, ids: number[], by: number, importId: string): Promise<number> {
  return rowsOf(
    await db.execute(sql`
      update price_proposals set status = 'accepted', decided_at = now(), decided_by = ${by}, import_id = ${importId}
      where status = 'pending' and id = any(${bigints(ids)}) returning id`),
  ).length;
}

const DEFAULT_IDS: MarketIds = {
  tcgplayer_product_id: null,
  scryfall_id: null,
  pokemontcg_id: null,
  external_ids: {},
  finish: "normal",
  price_frozen: false,
};

/** The product's market ids (the defaults when none are set); undefined when there is no such product. */
export async function marketIdsOf(db: Db, productId: number): Promise<{ ids: MarketIds } | undefined> {
  const [row] = rowsOf<{ found: MarketIds | null }>(
    await db.execute(sql`
      select (select row_to_json(m) from (
        select tcgplayer_product_id, scryfall_id, pokemontcg_id, external_ids, finish, price_frozen from product_market where product_id = p.id
      ) m) as found
      from products p where p.id = ${productId}`),
  );
  return row ? { ids: row.found ?? DEFAULT_IDS } : undefined;
}

/** The product's recorded market prices in the shop's currency over the last year, newest first. */
export async function marketHistory(db: Db, productId: number, currency: string): Promise<ProductMarket["history"]> {
  return rowsOf(
    await db.execute(sql`
      select mp.feed_id, f.name as feed_name, mp.day::text as day, mp.checked_on::text as checked_on, mp.finish, mp.currency,
        mp.market, mp.low, mp.mid, mp.high, mp.direct_low, mp.by_condition
      from market_prices mp join price_feeds f on f.id = mp.feed_id
      where mp.product_id = ${productId} and mp.currency = ${currency} and mp.checked_on >= current_date - 366
      order by mp.day desc, mp.feed_id`),
  );
}

export async function saveMarketIds(db: Db, productId: number, ids: MarketIds): Promise<void> {
  await db.execute(sql`
    insert into product_market (product_id, tcgplayer_product_id, scryfall_id, pokemontcg_id, external_ids, finish, price_frozen, updated_at)
    values (${productId}, ${ids.tcgplayer_product_id}, ${ids.scryfall_id}, ${ids.pokemontcg_id}, ${jsonParam(ids.external_ids)},
      ${ids.finish}, ${ids.price_frozen}, now())
    on conflict (product_id) do update set tcgplayer_product_id = excluded.tcgplayer_product_id, scryfall_id = excluded.scryfall_id,
      pokemontcg_id = excluded.pokemontcg_id, external_ids = excluded.external_ids, finish = excluded.finish,
      price_frozen = excluded.price_frozen, updated_at = now()`);
}

/** The stored rules as saved (checked by the caller), or undefined before any are. */
export async function storedRules(db: Db): Promise<unknown> {
  const [row] = rowsOf<{ rules: unknown }>(await db.execute(sql`select rules from pricing_rules where id = 1`));
  return row?.rules;
}

export async function saveRules(db: Db, rules: PricingRules, by: number): Promise<void> {
  await db.execute(sql`
    insert into pricing_rules (id, rules, updated_at, updated_by) values (1, ${jsonParam(rules)}, now(), ${by})
    on conflict (id) do update set rules = excluded.rules, updated_at = now(), updated_by = excluded.updated_by`);
}

/** Active, ungraded products the feed did not price on or after `day`, by name. */
export async function unmatchedProducts(
  db: Db,
  feedId: number,
  day: string,
  page: { limit: number; offset: number },
): Promise<UnmatchedAnswer> {
  const unmatched = sql`
    from products p left join product_market m on m.product_id = p.id
    where p.is_active and p.grader is null and not exists (
      select 1 from market_prices mp where mp.product_id = p.id and mp.feed_id = ${feedId} and mp.checked_on >= ${day})`;
  const products = rowsOf<UnmatchedAnswer["products"][number]>(
    await db.execute(sql`
      select p.id, p.barcode, p.product_name, p.set_name, p.card_number, coalesce(m.finish, 'normal') as finish ${unmatched}
      order by lower(p.product_name), p.id limit ${page.limit} offset ${page.offset}`),
  );
  const [count] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total ${unmatched}`));
  return { products, total: count?.total ?? 0 };
}

/** The run's cards whose name holds `q` (letter case aside; `%` and `_` as typed). */
export async function feedCardsNamed(db: Db, runId: number, q: string, limit: number): Promise<FeedCard[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<FeedCard>(
    await db.execute(sql`
      select name, set_code, set_name, number, finish, tcgplayer_product_id, scryfall_id, pokemontcg_id, market
      from feed_cards where run_id = ${runId} and name ilike ${pattern}
      order by name, set_name, number_key, finish limit ${limit}`),
  );
}
