import { ID_MAX } from "../../../contract/common.js";
import {
  type BuyLimit,
  type BuySettings,
  type BuySettingsAnswer,
  buySettingsSchema,
  COUNTER_MESSAGES,
  DEFAULT_BUY_SETTINGS,
  offerFor,
  type Payout,
  type TradeIn,
  type TradeInStatus,
  tradeInReason,
  tradeInReversedReason,
} from "../../../contract/counter.js";
import type { Product } from "../../../contract/products.js";
import type { Condition } from "../../../contract/rules.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { insertProductAudit } from "../audit/audit.repo.js";
import { type CommittedProduct, productAuditRow, stockChanged } from "../products/product-changes.js";
import { toProduct } from "../products/products.presenter.js";
import { applyQuantityChange, updateProduct } from "../products/products.repo.js";
import {
  allBuyLimits,
  buyLimitOf,
  closeDraft,
  creditBalance,
  findCustomer,
  findTradeIn,
  insertCreditEntry,
  insertTradeIn,
  listTradeInRows,
  lockProductsForTradeIn,
  lockTradeIn,
  markApproved,
  markReversed,
  offerRows,
  productExists,
  readBuySettings,
  replaceTradeInLines,
  setBuyLimit,
  setPaidUnits,
  type TradeInLineValues,
  type TradeInRow,
  tradeInLinesOf,
  updateTradeInHead,
  writeBuySettings,
} from "./counter.repo.js";
import { COUNTER, MANAGERS } from "./customers.service.js";
import { toTradeIn, tradeInTotals } from "./trade-in-presenter.js";

export interface TradeInInput {
  customer_id?: number | null;
  lines: Array<{
    product_id: number;
    condition?: Condition | null;
    quantity: number;
    offer_cash_cents?: number;
    offer_credit_cents?: number;
    struck: boolean;
  }>;
  payout: Payout;
  cash_cents?: number;
  credit_cents?: number;
  note?: string | null;
}

// Buy settings -----------------------------------------------------------------------------------

export async function buySettingsOf(db: Db): Promise<BuySettings> {
  const row = await readBuySettings(db);
  if (!row) return DEFAULT_BUY_SETTINGS;
  const parsed = buySettingsSchema.safeParse(row.settings);
  return parsed.success ? parsed.data : DEFAULT_BUY_SETTINGS;
}

export async function getBuySettings(ctx: ServiceContext): Promise<BuySettingsAnswer> {
  requirePermission(ctx, ...COUNTER);
  return { settings: await buySettingsOf(ctx.db), limits: await allBuyLimits(ctx.db) };
}

export async function putBuySettings(ctx: ServiceContext, settings: BuySettings): Promise<BuySettingsAnswer> {
  requirePermission(ctx, ...MANAGERS);
  await writeBuySettings(ctx.db, settings, ctx.actor.id);
  return { settings, limits: await allBuyLimits(ctx.db) };
}

/** How many of a product the shop wants on hand (null removes the limit). */
export async function putBuyLimit(ctx: ServiceContext, productId: number, limit: number | null): Promise<BuyLimit> {
  requirePermission(ctx, ...MANAGERS);
  if (productId > ID_MAX || !(await productExists(ctx.db, productId))) throw notFound("Product not found");
  await setBuyLimit(ctx.db, productId, limit);
  return { product_id: productId, buy_limit: await buyLimitOf(ctx.db, productId) };
}

// Offers ---------------------------------------------------------------------------------------

/**
 * The lines as a draft keeps them: each line's offer per unit from the latest market price (the
 * feed's price for the line's condition when it has one) and the buy settings, unless staff set it
 * by hand; a darklisted product's line struck; lines capped at the units the shop still wants
 * (buy limit - on hand, less the lines above for the same product), struck when it wants none.
 */
export async function offerLines(ctx: Pick<ServiceContext, "config">, db: Db, lines: TradeInInput["lines"]): Promise<TradeInLineValues[]> {
  const settings = await buySettingsOf(db);
  const rows = await offerRows(db, [...new Set(lines.map((l) => l.product_id))], ctx.config.CURRENCY);
  const taken = new Map<number, number>();
  return lines.map((line, index) => {
    const row = rows.get(line.product_id);
    if (!row?.is_active) throw badRequest(COUNTER_MESSAGES.lineProduct(index));
    const condition = line.condition ?? null;
    const market = (condition && condition !== "Near Mint" ? row.by_condition?.[condition] : undefined) ?? row.market;
    const offer = offerFor(row, market, settings);
    let quantity = line.quantity;
    let struck = line.struck;
    let note = offer.note;
    let cash = offer.cash;
    let credit = offer.credit;
    const byHand = !offer.darklisted && (line.offer_cash_cents !== undefined || line.offer_credit_cents !== undefined);
    if (byHand) {
      cash = line.offer_cash_cents ?? cash;
      credit = line.offer_credit_cents ?? credit;
      note = "Offer set by hand";
    }
    if (offer.darklisted) struck = true;
    else if (offer.wanted !== null && !struck) {
      const left = offer.wanted - (taken.get(row.id) ?? 0);
      if (left <= 0) {
        struck = true;
        note = "The shop wants no more of this product (buy limit)";
      } else if (quantity > left) {
        quantity = left;
        note = `Capped by the buy limit: ${left} wanted`;
      }
    }
    if (!struck) taken.set(row.id, (taken.get(row.id) ?? 0) + quantity);
    return {
      productId: row.id,
      condition,
      quantity,
      marketCents: market,
      offerCashCents: cash,
      offerCreditCents: credit,
      offerByHand: byHand,
      struck,
      note,
    };
  });
}

/**
 * What the customer is paid: all the cash offer, all the credit offer, or a split: the cash part
 * given, the credit part the rest of the credit offer in the same share (credit = credit offer x
 * (1 - cash / cash offer)); a credit part sent too must agree to the cent.
 */
function payoutOf(
  input: { payout: Payout; cash_cents?: number; credit_cents?: number },
  totals: { cash_cents: number; credit_cents: number },
) {
  if (input.payout === "cash") return { cashCents: totals.cash_cents, creditCents: 0 };
  if (input.payout === "credit") return { cashCents: 0, creditCents: totals.credit_cents };
  const cash = input.cash_cents ?? 0;
  if (cash > totals.cash_cents) throw badRequest(COUNTER_MESSAGES.splitSum);
  const credit =
    totals.cash_cents === 0 ? totals.credit_cents : Math.round((totals.credit_cents * (totals.cash_cents - cash)) / totals.cash_cents);
  if (input.credit_cents !== undefined && Math.abs(input.credit_cents - credit) > 1) throw badRequest(COUNTER_MESSAGES.splitSum);
  return { cashCents: cash, creditCents: credit };
}

async function requireCustomer(db: Db, id: number | null | undefined): Promise<number | null> {
  if (id === null || id === undefined) return null;
  const row = await findCustomer(db, id);
  if (!row) throw notFound(COUNTER_MESSAGES.customerNotFound);
  if (row.erasedAt) throw conflict(COUNTER_MESSAGES.customerErased);
  return id;
}

async function present(db: Db, row: TradeInRow): Promise<TradeIn> {
  return toTradeIn(row, (await tradeInLinesOf(db, [row.id])).get(row.id) ?? []);
}

// Trade-ins ------------------------------------------------------------------------------------

/** A new draft (customer optional); offers are made for its lines. */
export async function createTradeIn(ctx: ServiceContext, input: TradeInInput): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const customerId = await requireCustomer(tx, input.customer_id);
    const lines = await offerLines(ctx, tx, input.lines);
    const pay = payoutOf(input, tradeInTotals(lines));
    const row = await insertTradeIn(tx, {
      customerId,
      payout: input.payout,
      ...pay,
      note: input.note ?? null,
      createdById: ctx.actor.id,
      createdBy: ctx.actor.username,
    });
    await replaceTradeInLines(tx, row.id, lines);
    return present(tx, row);
  });
}

async function lockedDraft(tx: Db, id: number): Promise<TradeInRow> {
  const row = id > ID_MAX ? undefined : await lockTradeIn(tx, id);
  if (!row) throw notFound(COUNTER_MESSAGES.tradeInNotFound);
  if (row.status !== "draft") throw conflict(COUNTER_MESSAGES.notDraft(row.status));
  return row;
}

/** A draft saved again: its customer, lines (offers made again, but those set by hand) and payout; 409 unless a draft. */
export async function updateTradeIn(ctx: ServiceContext, id: number, input: TradeInInput): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    await lockedDraft(tx, id);
    const customerId = await requireCustomer(tx, input.customer_id);
    const lines = await offerLines(ctx, tx, input.lines);
    const pay = payoutOf(input, tradeInTotals(lines));
    const row = await updateTradeInHead(tx, id, { customerId, payout: input.payout, ...pay, note: input.note ?? null });
    await replaceTradeInLines(tx, id, lines);
    return present(tx, row);
  });
}

export async function getTradeIn(ctx: ServiceContext, id: number): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  const row = id > ID_MAX ? undefined : await findTradeIn(ctx.db, id);
  if (!row) throw notFound(COUNTER_MESSAGES.tradeInNotFound);
  return present(ctx.db, row);
}

export async function listTradeIns(
  ctx: ServiceContext,
  query: { status?: TradeInStatus; customer_id?: number; limit: number; offset: number },
): Promise<TradeIn[]> {
  requirePermission(ctx, ...COUNTER);
  const rows = await listTradeInRows(ctx.db, {
    status: query.status,
    customerId: query.customer_id,
    limit: query.limit,
    offset: query.offset,
  });
  const lines = await tradeInLinesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toTradeIn(r, lines.get(r.id) ?? []));
}

/** Voids a draft (409 once accepted or void). */
export async function voidTradeIn(ctx: ServiceContext, id: number): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    await lockedDraft(tx, id);
    const row = await closeDraft(tx, id, "void", ctx.actor.username);
    if (!row) throw conflict(COUNTER_MESSAGES.notDraft("void"));
    return present(tx, row);
  });
}

/**
 * Approves an online list (issue 40: Pending, Approved, Complete): only a draft that came from the
 * public buylist and is not approved yet (409 otherwise); it stays a draft staff adjust and accept
 * when the cards arrive. The row is locked, so two approvals at once approve it once.
 */
export async function approveTradeIn(ctx: ServiceContext, id: number): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const head = id > ID_MAX ? undefined : await lockTradeIn(tx, id);
    if (!head) throw notFound(COUNTER_MESSAGES.tradeInNotFound);
    if (head.source !== "online") throw conflict(COUNTER_MESSAGES.notApprovable("not_online"));
    if (head.status !== "draft") throw conflict(COUNTER_MESSAGES.notApprovable(head.status));
    if (head.approvedAt !== null) throw conflict(COUNTER_MESSAGES.notApprovable("approved"));
    const row = await markApproved(tx, id, ctx.actor.username);
    if (!row) throw conflict(COUNTER_MESSAGES.notApprovable("approved"));
    return present(tx, row);
  });
}

/** The product's cost after buying `quantity` at `paid` each: averaged with the stock's cost; the price paid when it had no cost or no stock. */
export function averagedCost(cost: number | null, onHand: number, quantity: number, paid: number): number {
  if (cost === null || onHand <= 0) return paid;
  return Math.round((cost * onHand + paid * quantity) / (onHand + quantity));
}

/**
 * Accepts a draft, all in one transaction: the trade-in's row is taken from draft to accepted by
 * one conditional update (a second accept of the same draft waits on it, then finds it accepted:
 * 409), its products locked in id order and checked (each active, not darklisted, within its buy
 * limit: else 409 and nothing changes), every line not struck goes into stock through
 * apply_quantity_change() (quantity audit `Trade-in #N`; the audit's triggers write the webhooks),
 * the price paid per unit averaged into the product's cost (an UPDATE audit entry), and the credit
 * part written to the customer's ledger. The live events follow the commit (stockChanged).
 */
export async function acceptTradeIn(ctx: ServiceContext, id: number): Promise<TradeIn> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const head = await lockedDraft(tx, id);
    const lines = ((await tradeInLinesOf(tx, [id])).get(id) ?? []).filter((l) => !l.struck);
    if (lines.length === 0) throw badRequest(COUNTER_MESSAGES.noLines);
    if (head.payout !== "cash" && head.customerId === null) throw badRequest(COUNTER_MESSAGES.creditNeedsCustomer);
    if (head.customerId !== null) await requireCustomer(tx, head.customerId);

    const settings = await buySettingsOf(tx);
    const ids = [...new Set(lines.map((l) => l.productId))].sort((a, b) => a - b);
    const locked = await lockProductsForTradeIn(tx, ids);
    const limits = await offerRows(tx, ids, ctx.config.CURRENCY);
    const bought = new Map<number, number>();
    for (const line of lines) {
      const index = line.line;
      const product = locked.get(line.productId);
      if (!product?.isActive) throw conflict(COUNTER_MESSAGES.lineProduct(index));
      if (settings.darklist.includes(line.productId)) throw conflict(COUNTER_MESSAGES.darklisted(index));
      const limit = limits.get(line.productId)?.buy_limit ?? null;
      const total = (bought.get(line.productId) ?? 0) + line.quantity;
      bought.set(line.productId, total);
      if (limit !== null && total > limit - product.quantityOnHand) {
        throw conflict(COUNTER_MESSAGES.overLimit(index, Math.max(0, limit - product.quantityOnHand)));
      }
    }

    const totals = tradeInTotals(lines);
    const pay = payoutOf({ payout: head.payout, cash_cents: Number(head.cashCents) }, totals);
    // The share of the offer taken in cash: each unit cost that share of its cash offer and the rest of its credit offer.
    const cashShare =
      head.payout === "cash" ? 1 : head.payout === "credit" || totals.cash_cents === 0 ? 0 : pay.cashCents / totals.cash_cents;
    const accepted = await closeDraft(tx, id, "accepted", ctx.actor.username);
    if (!accepted) throw conflict(COUNTER_MESSAGES.notDraft("accepted"));
    const row = await updateTradeInHead(tx, id, {
      customerId: head.customerId,
      payout: head.payout,
      ...pay,
      note: head.note,
    });

    const reason = tradeInReason(head.number);
    const changed: CommittedProduct[] = [];
    const paid: Array<{ lineId: number; cents: number }> = [];
    for (const line of lines) {
      const unit = Math.round(cashShare * line.offerCashCents + (1 - cashShare) * line.offerCreditCents);
      paid.push({ lineId: line.id, cents: unit });
      const answer = await applyQuantityChange(tx, {
        productId: line.productId,
        delta: line.quantity,
        reason,
        userId: ctx.actor.id,
        userName: ctx.actor.username,
        ip: ctx.ip,
      });
      // Locked and checked above: a refusal (the stock's limit) rolls the whole trade-in back.
      if (!("id" in answer.body)) throw conflict(COUNTER_MESSAGES.lineProduct(line.line));
      let product: Product = answer.body;
      const onHand = product.quantity_on_hand - line.quantity;
      const cost = averagedCost(product.cost, onHand, line.quantity, unit);
      if (cost !== product.cost) {
        const updated = await updateProduct(tx, product.id, { cost });
        await insertProductAudit(tx, [
          productAuditRow(ctx, updated, "UPDATE", { fields: ["cost"], oldValues: { cost: product.cost }, newValues: { cost } }),
        ]);
        product = toProduct(updated);
      }
      changed.push({
        product,
        before: { quantity: onHand, reorderPoint: product.reorder_point ?? null },
        extra: { quantity_change: line.quantity },
      });
    }
    await setPaidUnits(tx, paid);
    if (pay.creditCents > 0 && row.customerId !== null) {
      const entry = await insertCreditEntry(tx, {
        customerId: row.customerId,
        amount: pay.creditCents,
        kind: "trade_in",
        reason,
        tradeInId: id,
        createdById: ctx.actor.id,
        createdBy: ctx.actor.username,
      });
      if (!entry) throw new Error("trade-in credit entry refused");
    }
    afterCommit(() => stockChanged(ctx, { type: "quantity_changed", products: changed }));
    return present(tx, row);
  });
}

/**
 * An accepted trade-in reversed by a manager, only by new entries, in one transaction: the
 * trade-in's row locked (a second reversal waits, then answers 409), its products locked in id
 * order, every line not struck taken back out of stock through apply_quantity_change() (quantity
 * audit `Trade-in #N reversed`; a product disabled or without the units refuses it all: 409), the
 * credit part taken back by a negative ledger entry (409 with nothing applied when the balance no
 * longer covers it), and the trade-in marked reversed with who, when and why. Costs stay as
 * averaged: the units left were bought at them.
 */
export async function reverseTradeIn(ctx: ServiceContext, id: number, why: string): Promise<TradeIn> {
  requirePermission(ctx, ...MANAGERS);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const head = id > ID_MAX ? undefined : await lockTradeIn(tx, id);
    if (!head) throw notFound(COUNTER_MESSAGES.tradeInNotFound);
    if (head.status !== "accepted") throw conflict(COUNTER_MESSAGES.notAccepted(head.status));
    const lines = ((await tradeInLinesOf(tx, [id])).get(id) ?? []).filter((l) => !l.struck);
    await lockProductsForTradeIn(
      tx,
      [...new Set(lines.map((l) => l.productId))].sort((a, b) => a - b),
    );

    const reason = tradeInReversedReason(head.number);
    const changed: CommittedProduct[] = [];
    for (const line of lines) {
      const answer = await applyQuantityChange(tx, {
        productId: line.productId,
        delta: -line.quantity,
        reason,
        userId: ctx.actor.id,
        userName: ctx.actor.username,
        ip: ctx.ip,
      });
      if (!("id" in answer.body)) throw conflict(COUNTER_MESSAGES.lineNotReversible(line.line));
      const product = answer.body;
      changed.push({
        product,
        before: { quantity: product.quantity_on_hand + line.quantity, reorderPoint: product.reorder_point ?? null },
        extra: { quantity_change: -line.quantity },
      });
    }
    const credit = Number(head.creditCents);
    if (credit > 0 && head.customerId !== null) {
      const entry = await insertCreditEntry(tx, {
        customerId: head.customerId,
        amount: -credit,
        kind: "trade_in",
        reason: `${reason}: ${why}`,
        tradeInId: id,
        createdById: ctx.actor.id,
        createdBy: ctx.actor.username,
      });
      if (!entry) throw conflict(COUNTER_MESSAGES.reversalUncovered(await creditBalance(tx, head.customerId)));
    }
    const row = await markReversed(tx, id, ctx.actor.username, why);
    if (!row) throw conflict(COUNTER_MESSAGES.notAccepted("reversed"));
    afterCommit(() => stockChanged(ctx, { type: "quantity_changed", products: changed }));
    return present(tx, row);
  });
}
