import { COUNTER_MESSAGES, type Payment } from "../../../contract/counter.js";
import type { OrderUpdate } from "../../../contract/events.js";
import { ORDER_CANCELLED_REASON, ORDER_MESSAGES, orderReason } from "../../../contract/order-rules.js";
import type { FailedLine, Order } from "../../../contract/orders.js";
import type { Product } from "../../../contract/products.js";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import { requireAccess, requirePermission } from "../../permissions.js";
import { findCustomer, insertCreditEntry, insertOrderCounterParts, orderCounterParts } from "../counter/counter.repo.js";
import { type CommittedProduct, stockChanged } from "../products/product-changes.js";
import { applyQuantityChange } from "../products/products.repo.js";
import { enqueueWebhookEvent } from "../webhooks/webhooks.repo.js";
import {
  findOrder,
  findOrderByExternalId,
  findProductIdByBarcode,
  insertOrder,
  insertOrderLines,
  listOrderRows,
  lockProductsInIdOrder,
  markOrderCancelled,
  type OrderLineRow,
  type OrderRow,
  orderLinesOf,
} from "./orders.repo.js";

/** The largest id a PostgreSQL `integer` holds; larger ids cannot exist. */
const MAX_ID = 2_147_483_647;

export interface OrderInput {
  channel: string;
  external_id: string;
  lines: Array<{ barcode?: string; product_id?: number; quantity: number; unit_price?: number | null }>;
  note?: string;
  customer_id?: number;
  payments?: Payment[];
}

export interface OrdersListInput {
  channel?: string;
  status?: Order["status"];
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** Users who may manage products place orders (streamers sell by tapping); an API token needs orders:write. */
const PLACE = ["canManageProducts", "orders:write"] as const;
/** The orders list and cancelling: managers and super_admin; an API token with orders:write. */
const MANAGE = ["canManageIntegrations", "orders:write"] as const;

/** The channels a token limited to some may use; undefined: every channel (users, unlimited tokens). */
const channelsOf = (ctx: ServiceContext): readonly string[] | undefined => ctx.actor.token?.channels ?? undefined;

/** 403 unless the actor may place, cancel or read orders of this channel. */
function requireChannel(ctx: ServiceContext, channel: string): void {
  const channels = channelsOf(ctx);
  if (channels && !channels.includes(channel)) throw forbidden(ORDER_MESSAGES.channelNotAllowed(channels));
}

export function toOrder(row: OrderRow, lines: OrderLineRow[]): Order {
  return {
    id: row.id,
    channel: row.channel,
    external_id: row.externalId,
    status: row.status,
    lines: lines.map((l) => ({
      product_id: l.productId,
      barcode: l.barcode,
      product_name: l.productName,
      quantity: l.quantity,
      unit_price: l.unitPrice,
    })),
    total: row.total,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    cancelled_at: row.cancelledAt ? row.cancelledAt.toISOString() : null,
    cancelled_by: row.cancelledBy,
  };
}

/** The order with its counter sale's customer and payments, when it has any (the answers of POST and GET one, never events or webhooks). */
async function withCounterParts(db: Db, order: Order): Promise<Order> {
  const parts = await orderCounterParts(db, order.id);
  if (parts.customerId === null && parts.payments.length === 0) return order;
  return { ...order, customer_id: parts.customerId, payments: parts.payments };
}

function emitOrderUpdate(ctx: ServiceContext, type: OrderUpdate["type"], order: Order): void {
  ctx.events.emit("order_update", { type, order, timestamp: new Date().toISOString(), userId: ctx.actor.id });
}

/** A line's stock change as committed: like a tap, it moved the stock by `delta` and left the reorder point. */
function lineChange(product: Product, delta: number): CommittedProduct {
  const before = { quantity: product.quantity_on_hand - delta, reorderPoint: product.reorder_point ?? null };
  return { product, before, extra: { quantity_change: delta } };
}

interface ResolvedLine {
  index: number;
  productId: number | undefined;
  /** As sent, when the line named a barcode. */
  barcode: string | null;
  quantity: number;
  unitPrice: number | null;
}

/** Lines compared as a multiset of (product, quantity, unit price): a repeat that names a product by barcode or id is the same. */
function sameLines(sent: ResolvedLine[], stored: OrderLineRow[]): boolean {
  const key = (productId: number | null | undefined, quantity: number, unitPrice: number | null) =>
    `${productId ?? "?"}:${quantity}:${unitPrice ?? "-"}`;
  const a = sent.map((l) => key(l.productId, l.quantity, l.unitPrice)).sort();
  const b = stored.map((l) => key(l.productId, l.quantity, l.unitPrice)).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

async function resolveLines(tx: Db, lines: OrderInput["lines"]): Promise<ResolvedLine[]> {
  const resolved: ResolvedLine[] = [];
  for (const [index, line] of lines.entries()) {
    const productId =
      line.product_id !== undefined
        ? line.product_id
        : line.barcode !== undefined
          ? await findProductIdByBarcode(tx, line.barcode)
          : undefined;
    resolved.push({ index, productId, barcode: line.barcode ?? null, quantity: line.quantity, unitPrice: line.unit_price ?? null });
  }
  return resolved;
}

function orderTotal(lines: ResolvedLine[]): number | null {
  const priced = lines.filter((l) => l.unitPrice !== null);
  if (priced.length === 0) return null;
  const total = priced.reduce((sum, l) => sum + l.quantity * (l.unitPrice as number), 0);
  if (!Number.isSafeInteger(total)) throw badRequest("The order's total is too large");
  return total;
}

/**
 * Places an order: every line applies in one transaction, or none does (409, or 404 when a line
 * names an unknown product, with every failing line). The same channel and external id again
 * answers the existing order when its lines are the same (`created: false`) and 422 otherwise;
 * concurrent duplicates wait on the order's unique key, so they apply once. Products are locked
 * in id order, then each line goes through apply_quantity_change() like any tap (migration 0011),
 * carrying the order's id; the live events follow the commit.
 */
export async function placeOrder(ctx: ServiceContext, input: OrderInput): Promise<{ order: Order; created: boolean }> {
  requirePermission(ctx, ...PLACE);
  requireChannel(ctx, input.channel);
  // A customer's data and credit are the counter's: a token needs trade_ins:write too.
  if (input.customer_id !== undefined && ctx.actor.token) requireAccess(ctx.actor, "canManageProducts", "trade_ins:write");
  const credit = (input.payments ?? []).filter((p) => p.method === "credit").reduce((sum, p) => sum + p.amount, 0);
  if (credit > 0 && input.customer_id === undefined) throw badRequest(COUNTER_MESSAGES.paymentsNeedCustomer);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const lines = await resolveLines(tx, input.lines);
    const total = orderTotal(lines);
    if (input.payments && input.payments.reduce((sum, p) => sum + p.amount, 0) !== total) throw badRequest(COUNTER_MESSAGES.paymentsSum);
    if (input.customer_id !== undefined && !(await findCustomer(tx, input.customer_id))) throw notFound(COUNTER_MESSAGES.customerNotFound);
    const inserted = await insertOrder(tx, {
      channel: input.channel,
      externalId: input.external_id,
      note: input.note ? input.note : null,
      total,
      createdById: ctx.actor.id,
      createdBy: ctx.actor.username,
    });
    if (!inserted) {
      const existing = await findOrderByExternalId(tx, input.channel, input.external_id);
      if (!existing) throw new Error("order conflict without an order");
      const stored = (await orderLinesOf(tx, [existing.id])).get(existing.id) ?? [];
      if (!sameLines(lines, stored)) throw new AppError(422, ORDER_MESSAGES.differentLines);
      return { order: await withCounterParts(tx, toOrder(existing, stored)), created: false };
    }

    const ids = [...new Set(lines.flatMap((l) => (l.productId !== undefined && l.productId <= MAX_ID ? [l.productId] : [])))].sort(
      (a, b) => a - b,
    );
    const locked = await lockProductsInIdOrder(tx, ids);
    const failed: FailedLine[] = [];
    let unknown = 0;
    const taken = new Map<number, number>();
    for (const line of lines) {
      const product = line.productId === undefined ? undefined : locked.get(line.productId);
      if (!product) {
        unknown += 1;
        failed.push({ index: line.index, barcode: line.barcode, requested: line.quantity, available: 0 });
        continue;
      }
      const wanted = (taken.get(product.id) ?? 0) + line.quantity;
      taken.set(product.id, wanted);
      if (!product.isActive || wanted > product.quantityOnHand) {
        failed.push({
          index: line.index,
          barcode: line.barcode ?? product.barcode,
          requested: line.quantity,
          available: product.isActive ? product.quantityOnHand : 0,
        });
      }
    }
    if (failed.length > 0) {
      const status = unknown > 0 ? 404 : 409;
      throw new AppError(status, unknown > 0 ? ORDER_MESSAGES.unknownProduct(unknown) : ORDER_MESSAGES.refused(failed.length), {
        lines: failed,
      });
    }

    const changed: CommittedProduct[] = [];
    for (const line of lines) {
      const answer = await applyQuantityChange(tx, {
        productId: line.productId,
        delta: -line.quantity,
        reason: orderReason(input.channel, input.external_id),
        userId: ctx.actor.id,
        userName: ctx.actor.username,
        ip: ctx.ip,
        orderId: inserted.id,
        unitPrice: line.unitPrice,
      });
      // Locked and checked above: a refusal here would be a bug, and rolls the whole order back.
      if (!("id" in answer.body)) throw conflict(ORDER_MESSAGES.refused(1));
      changed.push(lineChange(answer.body, -line.quantity));
    }
    const lineRows = lines.map((line, i) => {
      const product = (changed[i] as { product: Product }).product;
      return {
        orderId: inserted.id,
        line: i,
        productId: product.id,
        barcode: product.barcode,
        productName: product.product_name,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
      };
    });
    await insertOrderLines(tx, lineRows);
    const order = toOrder(inserted, lineRows);
    if (input.customer_id !== undefined || input.payments) {
      await insertOrderCounterParts(tx, inserted.id, input.customer_id ?? null, input.payments ?? []);
    }
    if (credit > 0 && input.customer_id !== undefined) {
      // The credit part comes off the balance in the order's transaction: short, and the whole order (stock too) is refused.
      const entry = await insertCreditEntry(tx, {
        customerId: input.customer_id,
        amount: -credit,
        kind: "order",
        reason: orderReason(input.channel, input.external_id),
        orderId: inserted.id,
        createdById: ctx.actor.id,
        createdBy: ctx.actor.username,
      });
      if (!entry) {
        const customer = await findCustomer(tx, input.customer_id);
        const balance = customer?.balance ?? 0;
        throw conflict(COUNTER_MESSAGES.creditShort(balance, credit), { balance });
      }
    }
    // The outbox, in the order's transaction (its lines' stock changes are written by the audit's trigger).
    // Events and webhooks carry the order without its customer and payments.
    await enqueueWebhookEvent(tx, "order.created", { order });
    afterCommit(() => {
      stockChanged(ctx, { type: "quantity_changed", products: changed });
      emitOrderUpdate(ctx, "order_created", order);
    });
    return { order: input.customer_id !== undefined || input.payments ? await withCounterParts(tx, order) : order, created: true };
  });
}

/**
 * Cancels a completed order: every line's stock goes back (quantity changes with the reason
 * `Order cancelled` and the order's id), all in one transaction; 409 when it was cancelled
 * already, or when a line's product is disabled (nothing changes then); 403 for a token limited
 * to other channels.
 */
export async function cancelOrder(ctx: ServiceContext, id: number): Promise<Order> {
  requirePermission(ctx, ...MANAGE);
  if (id > MAX_ID) throw notFound(ORDER_MESSAGES.notFound);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    if (channelsOf(ctx)) {
      // An order's channel never changes: checked before anything is written.
      const existing = await findOrder(tx, id);
      if (!existing) throw notFound(ORDER_MESSAGES.notFound);
      requireChannel(ctx, existing.channel);
    }
    const row = await markOrderCancelled(tx, id, ctx.actor.username);
    if (!row) {
      if (!(await findOrder(tx, id))) throw notFound(ORDER_MESSAGES.notFound);
      throw conflict(ORDER_MESSAGES.alreadyCancelled);
    }
    const lines = (await orderLinesOf(tx, [id])).get(id) ?? [];
    const ids = [...new Set(lines.flatMap((l) => (l.productId === null ? [] : [l.productId])))].sort((a, b) => a - b);
    await lockProductsInIdOrder(tx, ids);
    const failed: FailedLine[] = [];
    const changed: CommittedProduct[] = [];
    for (const line of lines) {
      const answer = await applyQuantityChange(tx, {
        productId: line.productId ?? undefined,
        delta: line.quantity,
        reason: ORDER_CANCELLED_REASON,
        userId: ctx.actor.id,
        userName: ctx.actor.username,
        ip: ctx.ip,
        orderId: id,
        unitPrice: line.unitPrice,
      });
      if ("id" in answer.body) changed.push(lineChange(answer.body, line.quantity));
      else failed.push({ index: line.line, barcode: line.barcode, requested: line.quantity, available: 0 });
    }
    if (failed.length > 0) throw conflict(ORDER_MESSAGES.cannotRestock(failed.length), { lines: failed });
    // Store credit spent on the order goes back to the customer's ledger, in the same transaction.
    const parts = await orderCounterParts(tx, id);
    const spent = parts.payments.filter((p) => p.method === "credit").reduce((sum, p) => sum + p.amount, 0);
    if (spent > 0 && parts.customerId !== null) {
      const entry = await insertCreditEntry(tx, {
        customerId: parts.customerId,
        amount: spent,
        kind: "order",
        reason: ORDER_CANCELLED_REASON,
        orderId: id,
        createdById: ctx.actor.id,
        createdBy: ctx.actor.username,
      });
      if (!entry) throw new Error("order cancel: credit refund refused");
    }
    const order = toOrder(row, lines);
    await enqueueWebhookEvent(tx, "order.cancelled", { order });
    afterCommit(() => {
      stockChanged(ctx, { type: "quantity_changed", products: changed });
      emitOrderUpdate(ctx, "order_cancelled", order);
    });
    return order;
  });
}

export async function getOrder(ctx: ServiceContext, id: number): Promise<Order> {
  requirePermission(ctx, ...MANAGE);
  const row = id > MAX_ID ? undefined : await findOrder(ctx.db, id);
  if (!row) throw notFound(ORDER_MESSAGES.notFound);
  requireChannel(ctx, row.channel);
  return withCounterParts(ctx.db, toOrder(row, (await orderLinesOf(ctx.db, [id])).get(id) ?? []));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Orders newest first, filtered by channel, status and time (a day as `to` counts to its end); a token limited to channels sees only theirs. */
export async function listOrders(ctx: ServiceContext, query: OrdersListInput): Promise<Order[]> {
  requirePermission(ctx, ...MANAGE);
  const from = query.from === undefined ? undefined : new Date(DAY.test(query.from) ? `${query.from}T00:00:00Z` : query.from);
  let until: Date | undefined;
  if (query.to !== undefined) {
    until = DAY.test(query.to)
      ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS)
      : new Date(new Date(query.to).getTime() + 1);
  }
  const rows = await listOrderRows(ctx.db, {
    channel: query.channel,
    channels: channelsOf(ctx),
    status: query.status,
    from,
    until,
    limit: query.limit,
    offset: query.offset,
  });
  const lines = await orderLinesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toOrder(r, lines.get(r.id) ?? []));
}
