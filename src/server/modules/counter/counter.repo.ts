import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import type { BuySettings, CreditKind, PaymentMethod, Payout, TradeInStatus } from "../../../contract/counter.js";
import type { Condition } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import {
  buySettings,
  creditEntries,
  customerAudit,
  customerCredit,
  customers,
  orderCustomers,
  orderPayments,
  orders,
  productBuyLimits,
  products,
  tradeInLines,
  tradeIns,
} from "../../db/schema.js";
import { jsonParam, jsonReadOnce, rowsOf } from "../../db/sql.js";

/** The counter's statements: customers, the store credit ledger, trade-ins and buy settings (migration 0023). */

export type CustomerRow = typeof customers.$inferSelect & { balance: number };
export type CreditEntryRow = typeof creditEntries.$inferSelect;
export type TradeInRow = typeof tradeIns.$inferSelect;
export type TradeInLineRow = typeof tradeInLines.$inferSelect & { productName: string };

// Qualified by hand: drizzle names a lone table's columns unqualified, which inside a subquery
// would mean the inner table's (as it did for the stock takes' scan count).
const balanceOf = sql<number>`coalesce((select cc.balance from customer_credit cc where cc.customer_id = customers.id), 0)`.mapWith(Number);

// Customers ------------------------------------------------------------------------------------

export interface CustomerValues {
  name: string;
  email: string | null;
  phone: string | null;
  notes: string | null;
}

/** A new customer and their balance row (0), in the caller's transaction. */
export async function insertCustomer(tx: Db, values: CustomerValues & { createdBy: string }): Promise<CustomerRow> {
  const [row] = await tx.insert(customers).values(values).returning();
  if (!row) throw new Error("customer insert returned nothing");
  await tx.insert(customerCredit).values({ customerId: row.id, balance: 0 });
  return { ...row, balance: 0 };
}

export async function findCustomer(db: Db, id: number): Promise<CustomerRow | undefined> {
  const [row] = await db.select({ customer: customers, balance: balanceOf }).from(customers).where(eq(customers.id, id)).limit(1);
  return row ? { ...row.customer, balance: row.balance } : undefined;
}

/** Customers whose name, email or phone holds `q` (any case), by name; erased ones only without `q`. */
export async function searchCustomers(db: Db, q: string | undefined, page: { limit: number; offset: number }): Promise<CustomerRow[]> {
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await db
    .select({ customer: customers, balance: balanceOf })
    .from(customers)
    .where(like ? or(ilike(customers.name, like), ilike(customers.email, like), ilike(customers.phone, like)) : undefined)
    .orderBy(sql`${customers.erasedAt} is not null`, asc(sql`lower(${customers.name})`), asc(customers.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => ({ ...r.customer, balance: r.balance }));
}

/** The customer row locked for an edit or an erasure; undefined when there is none. */
export async function lockCustomer(tx: Db, id: number): Promise<typeof customers.$inferSelect | undefined> {
  const [row] = await tx.select().from(customers).where(eq(customers.id, id)).limit(1).for("update");
  return row;
}

export async function updateCustomer(tx: Db, id: number, values: CustomerValues): Promise<void> {
  await tx
    .update(customers)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(customers.id, id), isNull(customers.erasedAt)));
}

/**
 * Removes the person: name, email, phone and notes, and the notes of their trade-ins (an online
 * list's note says who sent it); the rows and every money record stay.
 */
export async function eraseCustomer(tx: Db, id: number, by: string): Promise<void> {
  await tx
    .update(customers)
    .set({ name: null, email: null, phone: null, notes: null, erasedAt: sql`now()`, erasedBy: by, updatedAt: sql`now()` })
    .where(eq(customers.id, id));
  await tx.update(tradeIns).set({ note: null }).where(eq(tradeIns.customerId, id));
}

export async function insertCustomerAudit(
  tx: Db,
  row: {
    customerId: number;
    action: "created" | "updated" | "exported" | "erased";
    fields: string[];
    /** null: no user (a customer's own submission of the public buylist). */
    userId: number | null;
    userName: string;
    ip: string;
  },
): Promise<void> {
  await tx.insert(customerAudit).values({
    customerId: row.customerId,
    action: row.action,
    fields: row.fields,
    userId: row.userId,
    userName: row.userName,
    ipAddress: row.ip,
  });
}

export async function customerAuditOf(db: Db, customerId: number) {
  return db.select().from(customerAudit).where(eq(customerAudit.customerId, customerId)).orderBy(asc(customerAudit.id));
}

/** The orders a customer is named on, newest first. */
export async function customerOrders(db: Db, customerId: number) {
  return db
    .select({
      id: orders.id,
      channel: orders.channel,
      externalId: orders.externalId,
      status: orders.status,
      total: orders.total,
      createdAt: orders.createdAt,
    })
    .from(orderCustomers)
    .innerJoin(orders, eq(orders.id, orderCustomers.orderId))
    .where(eq(orderCustomers.customerId, customerId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

// Store credit ---------------------------------------------------------------------------------

export interface CreditEntryValues {
  customerId: number;
  amount: number;
  kind: CreditKind;
  reason: string;
  tradeInId?: number | null;
  orderId?: number | null;
  createdById: number;
  createdBy: string;
}

/**
 * One ledger entry and the balance it leaves, in one statement: the balance row's update is
 * conditional (never below 0), and its row lock makes concurrent spends of one customer wait in
 * turn, each seeing the balance the one before left. Undefined, and nothing written, when the
 * balance is short (or the customer has no balance row).
 */
export async function insertCreditEntry(db: Db, e: CreditEntryValues): Promise<CreditEntryRow | undefined> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with moved as (
        update customer_credit set balance = balance + ${e.amount}::bigint
        where customer_id = ${e.customerId} and balance + ${e.amount}::bigint >= 0
        returning balance
      )
      insert into credit_entries (customer_id, amount, kind, reason, trade_in_id, order_id, balance_after, created_by_id, created_by)
      select ${e.customerId}, ${e.amount}, ${e.kind}, ${e.reason}, ${e.tradeInId ?? null}::int, ${e.orderId ?? null}::int, moved.balance,
        ${e.createdById}, ${e.createdBy}
      from moved
      returning id`),
  );
  const id = rows[0]?.id;
  if (id === undefined) return undefined;
  const [row] = await db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.id, Number(id)));
  return row;
}

export async function creditBalance(db: Db, customerId: number): Promise<number> {
  const [row] = await db.select({ balance: customerCredit.balance }).from(customerCredit).where(eq(customerCredit.customerId, customerId));
  return Number(row?.balance ?? 0);
}

/** A customer's ledger, newest first, and the sum of every entry (which the balance row must equal). */
export async function creditLedger(db: Db, customerId: number): Promise<{ entries: CreditEntryRow[]; sum: number }> {
  const entries = await db.select().from(creditEntries).where(eq(creditEntries.customerId, customerId)).orderBy(desc(creditEntries.id));
  return { entries, sum: entries.reduce((s, e) => s + Number(e.amount), 0) };
}

// Buy settings and limits ----------------------------------------------------------------------

export async function readBuySettings(db: Db): Promise<{ settings: unknown } | undefined> {
  const [row] = await db.select({ settings: buySettings.settings }).from(buySettings).where(eq(buySettings.id, 1));
  return row;
}

export async function writeBuySettings(db: Db, settings: BuySettings, userId: number): Promise<void> {
  await db
    .insert(buySettings)
    .values({ id: 1, settings, updatedBy: userId })
    .onConflictDoUpdate({ target: buySettings.id, set: { settings: jsonParam(settings), updatedAt: sql`now()`, updatedBy: userId } });
}

export async function productExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.id, id));
  return row !== undefined;
}

export async function setBuyLimit(db: Db, productId: number, limit: number | null): Promise<void> {
  if (limit === null) {
    await db.delete(productBuyLimits).where(eq(productBuyLimits.productId, productId));
    return;
  }
  await db
    .insert(productBuyLimits)
    .values({ productId, buyLimit: limit })
    .onConflictDoUpdate({ target: productBuyLimits.productId, set: { buyLimit: limit, updatedAt: sql`now()` } });
}

export async function buyLimitOf(db: Db, productId: number): Promise<number | null> {
  const [row] = await db
    .select({ limit: productBuyLimits.buyLimit })
    .from(productBuyLimits)
    .where(eq(productBuyLimits.productId, productId));
  return row?.limit ?? null;
}

/** What an offer needs of each product: its vendor, set, stock, buy limit and latest market price (and per condition). */
export interface OfferRow {
  id: number;
  product_name: string;
  vendor: string;
  set_name: string | null;
  quantity_on_hand: number;
  is_active: boolean;
  buy_limit: number | null;
  market: number | null;
  by_condition: Record<string, number> | null;
}

/**
 * The latest market price is the row a feed confirmed last over the last year, as the prices
 * module answers it (market-views.repo.ts latestMarketRow): read here, in this module's own
 * statement, so the counter does not reach into the prices module.
 */
export async function offerRows(db: Db, ids: number[], currency: string): Promise<Map<number, OfferRow>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<OfferRow>(
    await db.execute(sql`
      select p.id, p.product_name, p.vendor, p.set_name, p.quantity_on_hand, p.is_active, bl.buy_limit, l.market, l.by_condition
      from products p
      left join product_buy_limits bl on bl.product_id = p.id
      left join lateral (
        select mp.market, mp.by_condition from market_prices mp
        where mp.product_id = p.id and mp.currency = ${currency} and mp.checked_on >= current_date - 366
        order by mp.checked_on desc, mp.day desc, mp.feed_id limit 1) l on true
      where p.id = any(array(select json_array_elements_text(${jsonReadOnce(ids)})::int))`),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

// Trade-ins ------------------------------------------------------------------------------------

export interface TradeInHead {
  customerId: number | null;
  payout: Payout;
  cashCents: number;
  creditCents: number;
  note: string | null;
}

export interface TradeInLineValues {
  productId: number;
  condition: Condition | null;
  quantity: number;
  marketCents: number | null;
  offerCashCents: number;
  offerCreditCents: number;
  offerByHand: boolean;
  struck: boolean;
  note: string | null;
}

export async function insertTradeIn(tx: Db, head: TradeInHead & { createdById: number; createdBy: string }): Promise<TradeInRow> {
  const [row] = await tx.insert(tradeIns).values(head).returning();
  if (!row) throw new Error("trade-in insert returned nothing");
  return row;
}

/** The trade-in's row locked (an edit, an accept, a void wait for each other). */
export async function lockTradeIn(tx: Db, id: number): Promise<TradeInRow | undefined> {
  const [row] = await tx.select().from(tradeIns).where(eq(tradeIns.id, id)).limit(1).for("update");
  return row;
}

export async function updateTradeInHead(tx: Db, id: number, head: TradeInHead): Promise<TradeInRow> {
  const [row] = await tx
    .update(tradeIns)
    .set({ ...head, updatedAt: sql`now()` })
    .where(eq(tradeIns.id, id))
    .returning();
  if (!row) throw new Error("trade-in update returned nothing");
  return row;
}

export async function replaceTradeInLines(tx: Db, tradeInId: number, lines: TradeInLineValues[]): Promise<void> {
  await tx.delete(tradeInLines).where(eq(tradeInLines.tradeInId, tradeInId));
  if (lines.length > 0) await tx.insert(tradeInLines).values(lines.map((l, line) => ({ ...l, tradeInId, line })));
}

/**
 * Moves a draft on (accepted or void) in one conditional update: of two staff accepting the same
 * draft at once, the second waits on the row and then finds it no longer a draft (undefined).
 */
export async function closeDraft(tx: Db, id: number, status: "accepted" | "void", by: string): Promise<TradeInRow | undefined> {
  const set = status === "accepted" ? { acceptedBy: by, acceptedAt: sql`now()` } : { voidedBy: by, voidedAt: sql`now()` };
  const [row] = await tx
    .update(tradeIns)
    .set({ status, ...set, updatedAt: sql`now()` })
    .where(and(eq(tradeIns.id, id), eq(tradeIns.status, "draft")))
    .returning();
  return row;
}

/** An online draft not yet approved marked approved (undefined when it is no longer one): who and when. */
export async function markApproved(tx: Db, id: number, by: string): Promise<TradeInRow | undefined> {
  const [row] = await tx
    .update(tradeIns)
    .set({ approvedBy: by, approvedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(tradeIns.id, id), eq(tradeIns.status, "draft"), eq(tradeIns.source, "online"), isNull(tradeIns.approvedAt)))
    .returning();
  return row;
}

/** An accepted trade-in marked reversed (undefined when it is no longer accepted): who, when and why. */
export async function markReversed(tx: Db, id: number, by: string, reason: string): Promise<TradeInRow | undefined> {
  const [row] = await tx
    .update(tradeIns)
    .set({ status: "reversed", reversedBy: by, reversedAt: sql`now()`, reversalReason: reason, updatedAt: sql`now()` })
    .where(and(eq(tradeIns.id, id), eq(tradeIns.status, "accepted")))
    .returning();
  return row;
}

export async function setPaidUnits(tx: Db, paid: Array<{ lineId: number; cents: number }>): Promise<void> {
  for (const p of paid) await tx.update(tradeInLines).set({ paidUnitCents: p.cents }).where(eq(tradeInLines.id, p.lineId));
}

export async function findTradeIn(db: Db, id: number): Promise<TradeInRow | undefined> {
  const [row] = await db.select().from(tradeIns).where(eq(tradeIns.id, id)).limit(1);
  return row;
}

export async function listTradeInRows(
  db: Db,
  f: { status?: TradeInStatus; customerId?: number; limit: number; offset: number },
): Promise<TradeInRow[]> {
  return db
    .select()
    .from(tradeIns)
    .where(
      and(
        f.status ? eq(tradeIns.status, f.status) : undefined,
        f.customerId !== undefined ? eq(tradeIns.customerId, f.customerId) : undefined,
      ),
    )
    .orderBy(desc(tradeIns.createdAt), desc(tradeIns.id))
    .limit(f.limit)
    .offset(f.offset);
}

export async function tradeInLinesOf(db: Db, ids: number[]): Promise<Map<number, TradeInLineRow[]>> {
  const map = new Map<number, TradeInLineRow[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ line: tradeInLines, productName: products.productName })
    .from(tradeInLines)
    .innerJoin(products, eq(products.id, tradeInLines.productId))
    .where(inArray(tradeInLines.tradeInId, ids))
    .orderBy(asc(tradeInLines.tradeInId), asc(tradeInLines.line));
  for (const r of rows) {
    const list = map.get(r.line.tradeInId) ?? [];
    list.push({ ...r.line, productName: r.productName });
    map.set(r.line.tradeInId, list);
  }
  return map;
}

/** Products locked for a writer, in id order (the architecture's rule): what a trade-in's accept reads and writes under. */
export async function lockProductsForTradeIn(tx: Db, ids: number[]) {
  if (ids.length === 0) return new Map<number, { id: number; quantityOnHand: number; cost: number | null; isActive: boolean }>();
  const rows = await tx
    .select({ id: products.id, quantityOnHand: products.quantityOnHand, cost: products.cost, isActive: products.isActive })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  return new Map(rows.map((r) => [r.id, r]));
}

// Orders paid with credit ----------------------------------------------------------------------

export async function insertOrderCounterParts(
  tx: Db,
  orderId: number,
  customerId: number | null,
  payments: Array<{ method: PaymentMethod; amount: number }>,
): Promise<void> {
  if (customerId !== null) await tx.insert(orderCustomers).values({ orderId, customerId });
  if (payments.length > 0) await tx.insert(orderPayments).values(payments.map((p, line) => ({ orderId, line, ...p })));
}

export async function allBuyLimits(db: Db): Promise<Array<{ product_id: number; buy_limit: number }>> {
  const rows = await db.select().from(productBuyLimits).orderBy(asc(productBuyLimits.productId));
  return rows.map((r) => ({ product_id: r.productId, buy_limit: r.buyLimit }));
}

/** A counter sale's customer and payments (none for other orders). */
export async function orderCounterParts(
  db: Db,
  orderId: number,
): Promise<{ customerId: number | null; payments: Array<{ method: PaymentMethod; amount: number }> }> {
  const [customer] = await db.select({ id: orderCustomers.customerId }).from(orderCustomers).where(eq(orderCustomers.orderId, orderId));
  const payments = await db
    .select({ method: orderPayments.method, amount: orderPayments.amount })
    .from(orderPayments)
    .where(eq(orderPayments.orderId, orderId))
    .orderBy(asc(orderPayments.line));
  return { customerId: customer?.id ?? null, payments: payments.map((p) => ({ method: p.method, amount: Number(p.amount) })) };
}
