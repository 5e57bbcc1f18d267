import { centsToAmount } from "../../../contract/money.js";
import { roleHas } from "../../../contract/permissions.js";
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
import { AppError, badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { isUniqueViolation } from "../../db/sql.js";
import { requirePermission } from "../../permissions.js";
import { ImportBody } from "../import/import-body.js";
import { addImportPart, commitImport, createImport, type ImportDeps } from "../import/import-jobs.js";
import { WebhookTargets } from "../webhooks/webhook-targets.js";
import type { FeedInput } from "./feeds/parse-feed.js";
import type { FeedToRun } from "./price-admin.repo.js";
import * as repo from "./price-admin.repo.js";
import { loadRules, makeProposals } from "./price-proposals.js";
import { type RunOutcome, runFeed } from "./price-runs.js";

/** Market prices, feeds, rules and proposals: managers and super_admin (`prices:write` for tokens). */
const PERMISSION = "canManageIntegrations" as const;
const SCOPE = "prices:write" as const;
const allow = (ctx: ServiceContext) => requirePermission(ctx, PERMISSION, SCOPE);

export async function listFeeds(ctx: ServiceContext): Promise<PriceFeed[]> {
  allow(ctx);
  return repo.feedsWithLastRun(ctx.db);
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
    const id = await repo.insertFeed(ctx.db, body, ctx.actor.id);
    const [feed] = id === undefined ? [] : await repo.feedsWithLastRun(ctx.db, id);
    if (!feed) throw new Error("The feed was not saved");
    return feed;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A feed with this name already exists");
    throw err;
  }
}

/** A feed (what a run needs of it), or 404. */
export async function feedOf(ctx: ServiceContext, id: number): Promise<FeedToRun> {
  allow(ctx);
  const feed = await repo.findFeed(ctx.db, id);
  if (!feed) throw notFound("Feed not found");
  return feed;
}

/** One run of the feed from the file sent (`upload`) or fetched from its URL (`request`), the rules run after it; answered when done. */
export async function runFeedNow(
  ctx: ServiceContext,
  deps: ImportDeps,
  feed: FeedToRun,
  trigger: "upload" | "request",
  input: FeedInput,
): Promise<RunOutcome & { autoApplied: AutoApplied }> {
  allow(ctx);
  const outcome = await runFeed(deps.database, {
    feed,
    trigger,
    startedBy: ctx.actor.id,
    input,
    currency: ctx.config.CURRENCY,
    timezone: ctx.config.TIMEZONE,
  });
  if (outcome.status !== "done") return { ...outcome, autoApplied: { kind: "off" } };
  return { ...outcome, autoApplied: await autoApplyAfterRun(ctx, deps, { runId: outcome.id, scheduled: false }) };
}

/** What auto-apply did after a run: nothing (off, or no move under its percent), applied these as an import, or left them for review and why. */
export type AutoApplied =
  | { kind: "off" }
  | { kind: "none" }
  | { kind: "applied"; import_id: string; accepted: number }
  | { kind: "left"; reason: string };

/**
 * After a feed's run, when the shop turned auto-apply on (`auto_apply_under_percent`): its
 * pending proposals that move a price by less than that percent (exactly, in cents), are not big,
 * had a price to move from and whose product is not frozen are accepted as a manager's accept is
 * (applyProposals: one durable, undoable import, audited, webhooks). The rest stay for review.
 *
 * Done as `ctx.actor`: the user who ran the feed, or for the daily fetch the manager who last saved
 * the rules (scheduledActor). The import, and so each audit entry, carries that user's id and a
 * name saying it was auto-apply after which run, e.g. "alice · auto-apply after feed run 12". An
 * actor who may not manage products, or an import that cannot start now (too many in progress),
 * leaves the proposals for review.
 */
export async function autoApplyAfterRun(
  ctx: ServiceContext,
  deps: ImportDeps,
  run: { runId: number; scheduled: boolean },
): Promise<AutoApplied> {
  const under = (await loadRules(ctx.db)).auto_apply_under_percent;
  if (under === null) return { kind: "off" };
  if (!roleHas(ctx.actor.role, "canManageProducts")) {
    return { kind: "left", reason: `${ctx.actor.username} may not change products: the proposals stay for review` };
  }
  const ids = await repo.autoApplicableProposals(ctx.db, under);
  if (ids.length === 0) return { kind: "none" };
  const rows = await repo.proposalsToAccept(ctx.db, ids);
  if (rows.length === 0) return { kind: "none" };
  const as = run.scheduled
    ? `${ctx.actor.username} · auto-apply (rules they saved) after scheduled feed run ${run.runId}`
    : `${ctx.actor.username} · auto-apply after feed run ${run.runId}`;
  try {
    return { kind: "applied", ...(await applyProposals({ ...ctx, actor: { ...ctx.actor, username: as } }, deps, rows)) };
  } catch (err) {
    if (err instanceof AppError && err.statusCode < 500) return { kind: "left", reason: err.message };
    throw err;
  }
}

/**
 * Auto-apply after a run of the daily fetch: as the manager who last saved the rules (scheduledActor);
 * with none, the proposals stay for review.
 */
export async function autoApplyScheduled(base: Omit<ServiceContext, "actor">, deps: ImportDeps, runId: number): Promise<AutoApplied> {
  if ((await loadRules(base.db)).auto_apply_under_percent === null) return { kind: "off" };
  const actor = await scheduledActor(base.db);
  if (!actor) {
    return { kind: "left", reason: "No active manager saved the rules to apply them as: the proposals stay for review" };
  }
  return autoApplyAfterRun({ ...base, actor }, deps, { runId, scheduled: true });
}

/**
 * Who the daily fetch auto-applies as: the manager who last saved the rules (who turned auto-apply
 * on, or kept it on), while still active and allowed to change products; undefined otherwise (the
 * proposals then wait for review).
 */
async function scheduledActor(db: ServiceContext["db"]): Promise<ServiceContext["actor"] | undefined> {
  const saver = await repo.rulesSaver(db);
  if (!saver?.is_active || !roleHas(saver.role, "canManageProducts")) return undefined;
  return { id: saver.id, username: saver.username, role: saver.role };
}

export async function getRun(ctx: ServiceContext, runId: number): Promise<FeedRun> {
  allow(ctx);
  const run = await repo.findRun(ctx.db, runId);
  if (!run) throw notFound("Run not found");
  return run;
}

export async function listProposals(
  ctx: ServiceContext,
  query: { limit: number; offset: number; big?: "true" | "false" },
): Promise<{ proposals: PriceProposal[]; total: number; big: number }> {
  allow(ctx);
  return repo.pendingProposals(ctx.db, { ...query, bigOnly: query.big === "true" });
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
  const rows = await repo.proposalsToAccept(ctx.db, body.all ? "all" : (body.ids ?? []));
  if (rows.length === 0) throw conflict("No pending proposal to accept (another manager may have decided them)");
  return applyProposals(ctx, deps, rows);
}

/** Writes these pending proposals' prices as one import by `ctx.actor` (accepted by hand, or auto-applied after a run). */
async function applyProposals(
  ctx: ServiceContext,
  deps: ImportDeps,
  rows: repo.ProposalToAccept[],
): Promise<{ import_id: string; accepted: number }> {
  const job = await createImport(ctx);
  // An import row carries every field the import reads as "this value" when it is left out (stock,
  // year, active): each as the product has it now, so only the price differs. A change made after
  // this read is kept by the merge on updated_at.
  const importRows = rows.map((r) => ({
    barcode: r.barcode,
    product_name: r.product_name,
    vendor: r.vendor,
    release_year: r.release_year,
    quantity_on_hand: r.quantity_on_hand,
    is_active: r.is_active,
    price: centsToAmount(r.new_price),
    updated_at: r.based_on,
  }));
  await addImportPart(ctx, deps, job.id, 0, ImportBody.ofRows(importRows));
  const accepted = await repo.markAccepted(
    ctx.db,
    rows.map((r) => r.id),
    ctx.actor.id,
    job.id,
  );
  await commitImport(ctx, deps, job.id);
  return { import_id: job.id, accepted };
}

/** A product's ids at the sources, its latest market prices and their history (a year). Every signed-in user. */
export async function productMarket(ctx: ServiceContext, productId: number): Promise<ProductMarket> {
  const found = await repo.marketIdsOf(ctx.db, productId);
  if (!found) throw notFound("Product not found");
  const { ids } = found;
  const history = await repo.marketHistory(ctx.db, productId, ctx.config.CURRENCY);
  const latest = [...history].sort((a, b) => (a.checked_on === b.checked_on ? 0 : a.checked_on < b.checked_on ? 1 : -1))[0] ?? null;
  return { product_id: productId, ids, latest, history };
}

/** Sets how a product is found in feeds, its printing, or freezes its price (what is left out stays). */
export async function updateProductMarket(ctx: ServiceContext, productId: number, body: Partial<MarketIds>): Promise<ProductMarket> {
  requirePermission(ctx, "canManageProducts");
  const current = (await productMarket(ctx, productId)).ids;
  const next = { ...current, ...body };
  await repo.saveMarketIds(ctx.db, productId, {
    ...next,
    scryfall_id: next.scryfall_id || null,
    pokemontcg_id: next.pokemontcg_id || null,
  });
  return productMarket(ctx, productId);
}

export async function getRules(ctx: ServiceContext): Promise<PricingRules> {
  allow(ctx);
  return loadRules(ctx.db);
}

/** Saves the rules, and makes the proposals again with them. */
export async function saveRules(ctx: ServiceContext, deps: ImportDeps, body: unknown): Promise<PricingRules> {
  allow(ctx);
  const rules = pricingRulesSchema.parse(body);
  await repo.saveRules(ctx.db, rules, ctx.actor.id);
  await makeProposals(deps.database, { runId: null, currency: ctx.config.CURRENCY });
  return rules;
}

/** The feed's last good run (whose cards are kept), or 404. */
async function lastGoodRun(ctx: ServiceContext, feedId: number): Promise<{ id: number; day: string }> {
  await feedOf(ctx, feedId);
  const run = await repo.lastDoneRun(ctx.db, feedId);
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
  return repo.unmatchedProducts(ctx.db, feedId, run.day, query);
}

const FEED_CARDS_SHOWN = 50;

/** The printings of the feed's last good run whose name holds `q` (letter case aside), to link a product to. */
export async function searchFeedCards(ctx: ServiceContext, feedId: number, q: string): Promise<FeedCard[]> {
  allow(ctx);
  const run = await lastGoodRun(ctx, feedId);
  return repo.feedCardsNamed(ctx.db, run.id, q, FEED_CARDS_SHOWN);
}
