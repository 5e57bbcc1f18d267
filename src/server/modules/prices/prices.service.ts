import { sql } from "drizzle-orm";
import { centsToAmount } from "../../../contract/money.js";
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
import { type PricingRules, pricingRulesSchema } from "../../../contract/pricing-rules.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { isUniqueViolation, jsonParam, jsonReadOnce, rowsOf } from "../../db/sql.js";
import { requirePermission } from "../../permissions.js";
import { ImportBody } from "../import/import-body.js";
import { addImportPart, commitImport, createImport, type ImportDeps } from "../import/import-jobs.js";
import { WebhookTargets } from "../webhooks/webhook-targets.js";
import type { FeedInput } from "./feeds/parse-feed.js";
import { loadRules } from "./price-proposals.js";
import { type RunOutcome, runFeed } from "./price-runs.js";

/** Market prices, feeds, rules and proposals: managers and super_admin (`prices:write` for tokens). */
const PERMISSION = "canManageIntegrations" as const;
const SCOPE = "prices:write" as const;
const allow = (ctx: ServiceContext) => requirePermission(ctx, PERMISSION, SCOPE);

const ISO = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const RUN_COLUMNS = sql`r.id, r.feed_id, r.status, r.trigger, r.day::text as day, r.records, r.matched, r.proposals, r.problems, r.error,
  ${ISO("r.started_at")} as started_at, ${ISO("r.finished_at")} as finished_at`;

export async function listFeeds(ctx: ServiceContext): Promise<PriceFeed[]> {
  allow(ctx);
  const rows = rowsOf<Omit<PriceFeed, "last_run"> & { last_run: FeedRun | null }>(
    await ctx.db.execute(sql`
      select f.id, f.name, f.format, f.url, f.products_url, ${ISO("f.created_at")} as created_at,
        (select row_to_json(x) from (select ${RUN_COLUMNS} from price_feed_runs r where r.feed_id = f.id order by r.id desc limit 1) x) as last_run
      from price_feeds f order by f.name`),
  );
  return rows;
}

export async function createFeed(ctx: ServiceContext, body: CreateFeedBody): Promise<PriceFeed> {
  allow(ctx);
  if (body.format === "tcgcsv" && Boolean(body.url) !== Boolean(body.products_url)) {
    throw badRequest("A TCGCSV feed fetched daily needs both its prices URL and its products URL");
  }
  if (body.format !== "tcgcsv" && body.products_url) throw badRequest("Only a TCGCSV feed has a products URL");
  // The server fetches these: the same addresses are refused as for webhooks (this computer, the
  // private network, cloud metadata), less WEBHOOK_ALLOWED_HOSTS.
  const targets = new WebhookTargets(ctx.config.WEBHOOK_ALLOWED_HOSTS);
  for (const url of [body.url, body.products_url]) {
    const problem = url ? targets.urlProblem(url) : null;
    if (problem) throw badRequest(problem);
  }
  try {
    const [row] = rowsOf<{ id: number }>(
      await ctx.db.execute(sql`
        insert into price_feeds (name, format, url, products_url, created_by)
        values (${body.name}, ${body.format}, ${body.url ?? null}, ${body.products_url ?? null}, ${ctx.actor.id}) returning id`),
    );
    const feeds = await listFeeds(ctx);
    const feed = feeds.find((f) => f.id === row?.id);
    if (!feed) throw new Error("The feed was not saved");
    return feed;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A feed with this name already exists");
    throw err;
  }
}

async function feedOf(ctx: ServiceContext, id: number) {
  const [feed] = rowsOf<{ id: number; format: PriceFeed["format"]; url: string | null; products_url: string | null }>(
    await ctx.db.execute(sql`select id, format, url, products_url from price_feeds where id = ${id}`),
  );
  if (!feed) throw notFound("Feed not found");
  return feed;
}

/** One run of a feed from what was uploaded (or fetched), the rules run after it; answered when done. */
export async function runUploadedFeed(ctx: ServiceContext, deps: ImportDeps, id: number, input: FeedInput): Promise<RunOutcome> {
  allow(ctx);
  const feed = await feedOf(ctx, id);
  return runFeed(deps.database, {
    feed,
    trigger: "upload",
    startedBy: ctx.actor.id,
    input,
    currency: ctx.config.CURRENCY,
    timezone: ctx.config.TIMEZONE,
  });
}

export async function getRun(ctx: ServiceContext, runId: number): Promise<FeedRun> {
  allow(ctx);
  const [run] = rowsOf<FeedRun>(await ctx.db.execute(sql`select ${RUN_COLUMNS} from price_feed_runs r where r.id = ${runId}`));
  if (!run) throw notFound("Run not found");
  return run;
}

export async function listProposals(
  ctx: ServiceContext,
  query: { limit: number; offset: number; big?: "true" | "false" },
): Promise<{ proposals: PriceProposal[]; total: number; big: number }> {
  allow(ctx);
  const bigOnly = query.big === "true" ? sql`and pp.big` : sql``;
  const proposals = rowsOf<PriceProposal>(
    await ctx.db.execute(sql`
      select pp.id::int as id, pp.product_id, p.barcode, p.product_name, p.quantity_on_hand, pp.old_price, pp.new_price, pp.market,
        pp.estimated, pp.change_percent, pp.at_stake, pp.big, pp.steps, ${ISO("pp.created_at")} as created_at
      from price_proposals pp join products p on p.id = pp.product_id
      where pp.status = 'pending' ${bigOnly}
      order by pp.at_stake desc, pp.id
      limit ${query.limit} offset ${query.offset}`),
  );
  const [counts] = rowsOf<{ total: number; big: number }>(
    await ctx.db.execute(
      sql`select count(*)::int as total, (count(*) filter (where big))::int as big from price_proposals where status = 'pending'`,
    ),
  );
  return { proposals, total: counts?.total ?? 0, big: counts?.big ?? 0 };
}

/**
 * Accepts pending proposals: their prices written as one import (durable, in short batches, taps
 * first, audited, `product.updated` webhooks), each row based on the product as the proposal saw
 * it, so a price someone changed since is kept, not overwritten. Undone like any import.
 */
export async function acceptProposals(
  ctx: ServiceContext,
  deps: ImportDeps,
  body: { ids?: number[]; all?: boolean },
): Promise<{ import_id: string; accepted: number }> {
  allow(ctx);
  requirePermission(ctx, "canManageProducts", SCOPE);
  const which = body.all ? sql`` : sql`and pp.id = any(array(select json_array_elements_text(${jsonReadOnce(body.ids ?? [])})::bigint))`;
  const rows = rowsOf<{ id: number; barcode: string; product_name: string; vendor: string; new_price: number; based_on: string }>(
    await ctx.db.execute(sql`
      select pp.id::int as id, p.barcode, p.product_name, p.vendor, pp.new_price, to_char(pp.based_on at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as based_on
      from price_proposals pp join products p on p.id = pp.product_id
      where pp.status = 'pending' ${which} order by pp.id`),
  );
  if (rows.length === 0) throw conflict("No pending proposal to accept (another manager may have decided them)");
  const job = await createImport(ctx);
  // An import row names its product fully (name and vendor are required); only the price differs.
  const importRows = rows.map((r) => ({
    barcode: r.barcode,
    product_name: r.product_name,
    vendor: r.vendor,
    price: centsToAmount(r.new_price),
    updated_at: r.based_on,
  }));
  await addImportPart(ctx, deps, job.id, 0, ImportBody.ofRows(importRows));
  const taken = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      update price_proposals set status = 'accepted', decided_at = now(), decided_by = ${ctx.actor.id}, import_id = ${job.id}
      where status = 'pending' and id = any(array(select json_array_elements_text(${jsonReadOnce(rows.map((r) => r.id))})::bigint))
      returning id`),
  );
  await commitImport(ctx, deps, job.id);
  return { import_id: job.id, accepted: taken.length };
}

const MARKET_DEFAULTS: MarketIds = {
  tcgplayer_product_id: null,
  scryfall_id: null,
  pokemontcg_id: null,
  external_ids: {},
  finish: "normal",
  price_frozen: false,
};

const MARKET_COLUMNS = sql`mp.feed_id, f.name as feed_name, mp.day::text as day, mp.checked_on::text as checked_on, mp.finish, mp.currency,
  mp.market, mp.low, mp.mid, mp.high, mp.direct_low, mp.by_condition`;

/** A product's ids at the sources, its latest market prices and their history (a year). Every signed-in user. */
export async function productMarket(ctx: ServiceContext, productId: number): Promise<ProductMarket> {
  const [product] = rowsOf<{ id: number }>(await ctx.db.execute(sql`select id from products where id = ${productId}`));
  if (!product) throw notFound("Product not found");
  const [ids] = rowsOf<MarketIds>(
    await ctx.db.execute(sql`
      select tcgplayer_product_id, scryfall_id, pokemontcg_id, external_ids, finish, price_frozen from product_market where product_id = ${productId}`),
  );
  const history = rowsOf<ProductMarket["history"][number]>(
    await ctx.db.execute(sql`
      select ${MARKET_COLUMNS} from market_prices mp join price_feeds f on f.id = mp.feed_id
      where mp.product_id = ${productId} and mp.currency = ${ctx.config.CURRENCY} and mp.checked_on >= current_date - 366
      order by mp.day desc, mp.feed_id`),
  );
  const latest = [...history].sort((a, b) => (a.checked_on === b.checked_on ? 0 : a.checked_on < b.checked_on ? 1 : -1))[0] ?? null;
  return { product_id: productId, ids: ids ?? MARKET_DEFAULTS, latest, history };
}

/** Sets how a product is found in feeds, its printing, or freezes its price (what is left out stays). */
export async function updateProductMarket(ctx: ServiceContext, productId: number, body: Partial<MarketIds>): Promise<ProductMarket> {
  requirePermission(ctx, "canManageProducts");
  const current = (await productMarket(ctx, productId)).ids;
  const next = { ...current, ...body };
  await ctx.db.execute(sql`
    insert into product_market (product_id, tcgplayer_product_id, scryfall_id, pokemontcg_id, external_ids, finish, price_frozen, updated_at)
    values (${productId}, ${next.tcgplayer_product_id}, ${next.scryfall_id || null}, ${next.pokemontcg_id || null}, ${jsonParam(next.external_ids)},
      ${next.finish}, ${next.price_frozen}, now())
    on conflict (product_id) do update set tcgplayer_product_id = excluded.tcgplayer_product_id, scryfall_id = excluded.scryfall_id,
      pokemontcg_id = excluded.pokemontcg_id, external_ids = excluded.external_ids, finish = excluded.finish,
      price_frozen = excluded.price_frozen, updated_at = now()`);
  return productMarket(ctx, productId);
}

export async function getRules(ctx: ServiceContext): Promise<PricingRules> {
  allow(ctx);
  return loadRules(ctx.db);
}

export async function saveRules(ctx: ServiceContext, body: unknown): Promise<PricingRules> {
  allow(ctx);
  const rules = pricingRulesSchema.parse(body);
  await ctx.db.execute(sql`
    insert into pricing_rules (id, rules, updated_at, updated_by) values (1, ${jsonParam(rules)}, now(), ${ctx.actor.id})
    on conflict (id) do update set rules = excluded.rules, updated_at = now(), updated_by = excluded.updated_by`);
  return rules;
}

/** The feed's last good run (whose cards are kept), or 404. */
async function lastGoodRun(ctx: ServiceContext, feedId: number): Promise<{ id: number; day: string }> {
  await feedOf(ctx, feedId);
  const [run] = rowsOf<{ id: number; day: string }>(
    await ctx.db.execute(sql`
      select id, day::text as day from price_feed_runs where feed_id = ${feedId} and status = 'done' order by id desc limit 1`),
  );
  if (!run) throw notFound("This feed has not been read yet");
  return run;
}

/**
 * Active, ungraded products the feed's last good run did not price, by name: each can be linked
 * to a printing of the feed (its cards searched by name) by setting its ids.
 */
export async function unmatchedProducts(
  ctx: ServiceContext,
  feedId: number,
  query: { limit: number; offset: number },
): Promise<UnmatchedAnswer> {
  allow(ctx);
  const run = await lastGoodRun(ctx, feedId);
  const unmatched = sql`
    from products p left join product_market m on m.product_id = p.id
    where p.is_active and p.grader is null and not exists (
      select 1 from market_prices mp where mp.product_id = p.id and mp.feed_id = ${feedId} and mp.checked_on >= ${run.day})`;
  const products = rowsOf<UnmatchedAnswer["products"][number]>(
    await ctx.db.execute(sql`
      select p.id, p.barcode, p.product_name, p.set_name, p.card_number, coalesce(m.finish, 'normal') as finish ${unmatched}
      order by lower(p.product_name), p.id limit ${query.limit} offset ${query.offset}`),
  );
  const [count] = rowsOf<{ total: number }>(await ctx.db.execute(sql`select count(*)::int as total ${unmatched}`));
  return { products, total: count?.total ?? 0 };
}

const FEED_CARDS_SHOWN = 50;

/** The printings of the feed's last good run whose name holds `q` (letter case aside), to link a product to. */
export async function searchFeedCards(ctx: ServiceContext, feedId: number, q: string): Promise<FeedCard[]> {
  allow(ctx);
  const run = await lastGoodRun(ctx, feedId);
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<FeedCard>(
    await ctx.db.execute(sql`
      select name, set_code, set_name, number, finish, tcgplayer_product_id, scryfall_id, pokemontcg_id, market
      from feed_cards where run_id = ${run.id} and name ilike ${pattern}
      order by name, set_name, number_key, finish limit ${FEED_CARDS_SHOWN}`),
  );
}
