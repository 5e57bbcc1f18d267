import { ID_MAX } from "../../../contract/common.js";
import {
  COUNTER_MESSAGES,
  type CreditEntry,
  type CreditLedger,
  type Customer,
  type CustomerDetail,
  type CustomerExport,
  type TradeIn,
} from "../../../contract/counter.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import {
  type CreditEntryRow,
  type CustomerRow,
  type CustomerValues,
  creditLedger,
  customerOrders,
  eraseCustomer as eraseCustomerRow,
  findCustomer,
  insertCreditEntry,
  insertCustomer,
  insertCustomerAudit,
  listTradeInRows,
  lockCustomer,
  searchCustomers,
  tradeInLinesOf,
  updateCustomer as updateCustomerRow,
} from "./counter.repo.js";
import { toTradeIn } from "./trade-in-presenter.js";

/**
 * Customer data is read by staff who need it: inventory, managers and super_admin (never
 * streamers); a token needs `trade_ins:write`. It is never sent to sockets or webhooks.
 */
export const COUNTER = ["canManageProducts", "trade_ins:write"] as const;
/** Manual credit adjustments, buy settings and limits: managers and super_admin. */
export const MANAGERS = ["canManageIntegrations", "trade_ins:write"] as const;

export function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name ?? "",
    email: row.email,
    phone: row.phone,
    notes: row.notes,
    created_at: row.createdAt.toISOString(),
    erased_at: row.erasedAt ? row.erasedAt.toISOString() : null,
    credit_balance: row.balance,
  };
}

export function toCreditEntry(row: CreditEntryRow): CreditEntry {
  return {
    id: row.id,
    customer_id: row.customerId,
    amount: Number(row.amount),
    kind: row.kind,
    reason: row.reason,
    trade_in_id: row.tradeInId,
    order_id: row.orderId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    balance_after: Number(row.balanceAfter),
  };
}

const audit = (ctx: ServiceContext, customerId: number, action: "created" | "updated" | "exported" | "erased", fields: string[]) => ({
  customerId,
  action,
  fields,
  userId: ctx.actor.id,
  userName: ctx.actor.username,
  ip: ctx.ip,
});

/** The customer, or 404. */
export async function customerOr404(db: Db, id: number): Promise<CustomerRow> {
  const row = id > ID_MAX ? undefined : await findCustomer(db, id);
  if (!row) throw notFound(COUNTER_MESSAGES.customerNotFound);
  return row;
}

export async function listCustomers(ctx: ServiceContext, query: { q?: string; limit: number; offset: number }): Promise<Customer[]> {
  requirePermission(ctx, ...COUNTER);
  return (await searchCustomers(ctx.db, query.q || undefined, query)).map(toCustomer);
}

export async function createCustomer(ctx: ServiceContext, values: CustomerValues): Promise<Customer> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const row = await insertCustomer(tx, { ...values, createdBy: ctx.actor.username });
    await insertCustomerAudit(
      tx,
      audit(
        ctx,
        row.id,
        "created",
        Object.keys(values).filter((k) => values[k as keyof CustomerValues] !== null),
      ),
    );
    return toCustomer(row);
  });
}

export async function updateCustomer(ctx: ServiceContext, id: number, values: CustomerValues): Promise<Customer> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const current = id > ID_MAX ? undefined : await lockCustomer(tx, id);
    if (!current) throw notFound(COUNTER_MESSAGES.customerNotFound);
    if (current.erasedAt) throw conflict(COUNTER_MESSAGES.customerErased);
    const fields = (Object.keys(values) as Array<keyof CustomerValues>).filter((k) => values[k] !== current[k]);
    if (fields.length > 0) {
      await updateCustomerRow(tx, id, values);
      await insertCustomerAudit(tx, audit(ctx, id, "updated", fields));
    }
    return toCustomer(await customerOr404(tx, id));
  });
}

async function ledgerOf(db: Db, customerId: number, balance: number): Promise<CreditLedger> {
  const { entries } = await creditLedger(db, customerId);
  return { balance, entries: entries.map(toCreditEntry) };
}

async function tradeInsOf(db: Db, customerId: number): Promise<TradeIn[]> {
  const rows = await listTradeInRows(db, { customerId, limit: 1000, offset: 0 });
  const lines = await tradeInLinesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toTradeIn(r, lines.get(r.id) ?? []));
}

async function detailOf(db: Db, row: CustomerRow): Promise<CustomerDetail> {
  const orders = await customerOrders(db, row.id);
  return {
    customer: toCustomer(row),
    trade_ins: await tradeInsOf(db, row.id),
    orders: orders.map((o) => ({
      id: o.id,
      channel: o.channel,
      external_id: o.externalId,
      status: o.status,
      total: o.total,
      created_at: o.createdAt.toISOString(),
    })),
    credit: await ledgerOf(db, row.id, row.balance),
  };
}

/** A customer's page: the customer with their balance, trade-ins, orders and the credit ledger. */
export async function getCustomer(ctx: ServiceContext, id: number): Promise<CustomerDetail> {
  requirePermission(ctx, ...COUNTER);
  return detailOf(ctx.db, await customerOr404(ctx.db, id));
}

/** Everything kept about the customer, as JSON; the export itself is audited. */
export async function exportCustomer(ctx: ServiceContext, id: number): Promise<CustomerExport> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const row = await customerOr404(tx, id);
    await insertCustomerAudit(tx, audit(ctx, id, "exported", []));
    return { ...(await detailOf(tx, row)), exported_at: new Date().toISOString() };
  });
}

/**
 * Erases the person: name, email, phone and notes go; the row stays (as "Erased customer" in
 * lists), with every money record that points to it (credit entries and their sums, trade-ins,
 * orders). Audited with who; 409 when erased already.
 */
export async function eraseCustomer(ctx: ServiceContext, id: number): Promise<Customer> {
  requirePermission(ctx, ...COUNTER);
  return withTransaction(ctx.db, async (tx) => {
    const current = id > ID_MAX ? undefined : await lockCustomer(tx, id);
    if (!current) throw notFound(COUNTER_MESSAGES.customerNotFound);
    if (current.erasedAt) throw conflict(COUNTER_MESSAGES.customerErased);
    await eraseCustomerRow(tx, id, ctx.actor.username);
    const fields = (["name", "email", "phone", "notes"] as const).filter((f) => current[f] !== null);
    await insertCustomerAudit(tx, audit(ctx, id, "erased", [...fields]));
    return toCustomer(await customerOr404(tx, id));
  });
}

export async function getCredit(ctx: ServiceContext, id: number): Promise<CreditLedger> {
  requirePermission(ctx, ...COUNTER);
  const row = await customerOr404(ctx.db, id);
  return ledgerOf(ctx.db, id, row.balance);
}

/**
 * A manager's adjustment (or expiry) with a reason: one ledger entry, written with the balance it
 * leaves in one statement; 409 when it would take the balance below 0 (nothing written).
 */
export async function adjustCredit(
  ctx: ServiceContext,
  id: number,
  input: { amount: number; kind: "adjustment" | "expiry"; reason: string },
): Promise<{ entry: CreditEntry; balance: number }> {
  requirePermission(ctx, ...MANAGERS);
  if (input.kind === "expiry" && input.amount > 0) throw badRequest("An expiry takes credit away: its amount is negative");
  await customerOr404(ctx.db, id);
  const row = await insertCreditEntry(ctx.db, {
    customerId: id,
    amount: input.amount,
    kind: input.kind,
    reason: input.reason,
    createdById: ctx.actor.id,
    createdBy: ctx.actor.username,
  });
  if (!row) {
    const balance = (await customerOr404(ctx.db, id)).balance;
    throw conflict(COUNTER_MESSAGES.creditShort(balance, -input.amount), { balance });
  }
  return { entry: toCreditEntry(row), balance: Number(row.balanceAfter) };
}
