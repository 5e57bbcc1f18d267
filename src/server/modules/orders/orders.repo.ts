import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { gtinKey } from "../../../contract/gtin.js";
import type { Db } from "../../db/client.js";
import { orderLines, orders, products } from "../../db/schema.js";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

/** The product a line's barcode names (or another form of its GTIN, the exact barcode first), as a scan finds it. */
export async function findProductIdByBarcode(db: Db, barcode: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(or(eq(products.barcodeKey, gtinKey(barcode)), eq(products.barcode, barcode)))
    .orderBy(sql`${products.barcode} = ${barcode} desc`)
    .limit(1);
  return row?.id;
}

/**
 * The order, unless one with its channel and external id exists: then nothing. A concurrent
 * insert of the same pair waits here until the first one's transaction ends (then finds it, or,
 * when it rolled back, inserts its own).
 */
export async function insertOrder(
  tx: Db,
  values: Pick<typeof orders.$inferInsert, "channel" | "externalId" | "note" | "total" | "createdById" | "createdBy">,
): Promise<OrderRow | undefined> {
  const [row] = await tx.insert(orders).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findOrderByExternalId(db: Db, channel: string, externalId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, channel), eq(orders.externalId, externalId)))
    .limit(1);
  return row;
}

export async function findOrder(db: Db, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

export type LockedProduct = Pick<typeof products.$inferSelect, "id" | "barcode" | "productName" | "quantityOnHand" | "isActive">;

/** The products, locked until the end of the transaction in id order (racing orders never deadlock). */
export async function lockProductsInIdOrder(tx: Db, ids: number[]): Promise<Map<number, LockedProduct>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: products.id,
      barcode: products.barcode,
      productName: products.productName,
      quantityOnHand: products.quantityOnHand,
      isActive: products.isActive,
    })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  return new Map(rows.map((r) => [r.id, r]));
}

export async function insertOrderLines(tx: Db, rows: Array<typeof orderLines.$inferInsert>): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(orderLines).values(rows);
}

/** The lines of these orders, in line order, by order. */
export async function orderLinesOf(db: Db, orderIds: number[]): Promise<Map<number, OrderLineRow[]>> {
  const byOrder = new Map<number, OrderLineRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, orderIds))
    .orderBy(asc(orderLines.orderId), asc(orderLines.line));
  for (const row of rows) byOrder.get(row.orderId)?.push(row);
  return byOrder;
}

/** Marks a completed order cancelled (its row stays locked to the end of the transaction); nothing when it is not completed. */
export async function markOrderCancelled(tx: Db, id: number, by: string): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: sql`now()`, cancelledBy: by })
    .where(and(eq(orders.id, id), eq(orders.status, "completed")))
    .returning();
  return row;
}

export interface OrderFilter {
  channel?: string;
  /** Only orders of these channels (a token limited to them). */
  channels?: readonly string[];
  status?: OrderRow["status"];
  from?: Date;
  /** Exclusive. */
  until?: Date;
  limit: number;
  offset: number;
}

/** Orders newest first. */
export async function listOrderRows(db: Db, f: OrderFilter): Promise<OrderRow[]> {
  const parts: SQL[] = [];
  if (f.channel !== undefined) parts.push(eq(orders.channel, f.channel));
  if (f.channels !== undefined) parts.push(inArray(orders.channel, [...f.channels]));
  if (f.status !== undefined) parts.push(eq(orders.status, f.status));
  if (f.from) parts.push(gte(orders.createdAt, f.from));
  if (f.until) parts.push(lt(orders.createdAt, f.until));
  return db
    .select()
    .from(orders)
    .where(parts.length > 0 ? and(...parts) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(f.limit)
    .offset(f.offset);
}
