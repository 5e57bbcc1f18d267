import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { AuditUser, ProductAuditAction, ProductAuditEntry, QuantityAuditEntry, TransactionType } from "../../../contract/audit.js";
import type { Db } from "../../db/client.js";
import { productAudit, quantityAudit, shows, users } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";

export interface ProductAuditInsert {
  productId: number;
  productName: string;
  barcode: string;
  action: ProductAuditAction;
  userId: number;
  userName: string;
  changedFields: string[];
  oldValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  ipAddress: string | null;
  /** The product version the change produced. */
  productVersion: number;
}

export interface QuantityAuditInsert {
  productId: number;
  productName: string;
  barcode: string;
  quantityChange: number;
  quantityBefore: number;
  quantityAfter: number;
  transactionType: TransactionType;
  notes: string | null;
  userId: number;
  userName: string;
}

/** Writes product audit rows; call inside the transaction of the change they record. Set-based for imports. */
export async function insertProductAudit(tx: Db, rows: ProductAuditInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(productAudit).values(rows);
}

/** Writes quantity audit rows; call inside the transaction of the change they record. */
export async function insertQuantityAudit(tx: Db, rows: QuantityAuditInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(quantityAudit).values(rows);
}

/** What changed on a product after `version`: how many changes were recorded, and the fields they changed. */
export interface ChangesSince {
  changes: number;
  fields: string[];
}

/**
 * The union of the changed fields of the product's audit rows that produced a version above
 * `version`. Rows written before migration 0002 carry no version and are not counted, so a
 * caller can compare `changes` with the versions that passed to know whether it saw them all.
 */
export async function changesSinceVersion(db: Db, productId: number, version: number): Promise<ChangesSince> {
  const result = await db.execute(sql`
    select count(distinct a.id)::int as changes,
      coalesce(jsonb_agg(distinct f.field) filter (where f.field is not null), '[]'::jsonb) as fields
    from ${productAudit} as a
      left join lateral jsonb_array_elements_text(a.changed_fields) as f(field) on true
    where a.product_id = ${productId} and a.product_version > ${version}`);
  const [row] = rowsOf<ChangesSince>(result);
  return { changes: Number(row?.changes ?? 0), fields: row?.fields ?? [] };
}

/** Filters of the audit lists; `productId` narrows to one product. */
export interface AuditFilter {
  productId?: number;
  userId?: number;
  since?: Date;
  until?: Date;
  limit: number;
  offset: number;
  /** Quantity entries of one show. */
  showId?: number;
}

function conditions(table: typeof productAudit | typeof quantityAudit, f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.showId !== undefined) parts.push(table === quantityAudit ? eq(quantityAudit.showId, f.showId) : sql`false`);
  if (f.productId !== undefined) parts.push(eq(table.productId, f.productId));
  if (f.userId !== undefined) parts.push(eq(table.userId, f.userId));
  if (f.since) parts.push(gte(table.timestamp, f.since));
  // Stored times carry microseconds, answers show milliseconds: `until` includes its whole millisecond.
  if (f.until) parts.push(lt(table.timestamp, new Date(f.until.getTime() + 1)));
  return parts.length > 0 ? and(...parts) : undefined;
}

/** Product audit entries, newest first (timestamp, then id, descending). */
export async function listProductAudit(db: Db, f: AuditFilter): Promise<ProductAuditEntry[]> {
  const rows = await db
    .select()
    .from(productAudit)
    .where(conditions(productAudit, f))
    .orderBy(desc(productAudit.timestamp), desc(productAudit.id))
    .limit(f.limit)
    .offset(f.offset);
  return rows.map((r) => ({
    id: r.id,
    product_id: r.productId,
    product_name: r.productName,
    barcode: r.barcode,
    action: r.action,
    timestamp: r.timestamp.toISOString(),
    user_id: r.userId,
    user_name: r.userName,
    changed_fields: r.changedFields,
    old_values: r.oldValues ?? null,
    new_values: r.newValues ?? null,
    ip_address: r.ipAddress,
  }));
}

/** Quantity audit entries, newest first (timestamp, then id, descending). */
export async function listQuantityAudit(db: Db, f: AuditFilter): Promise<QuantityAuditEntry[]> {
  const rows = await db
    .select({ entry: quantityAudit, showName: shows.name })
    .from(quantityAudit)
    .leftJoin(shows, eq(shows.id, quantityAudit.showId))
    .where(conditions(quantityAudit, f))
    .orderBy(desc(quantityAudit.timestamp), desc(quantityAudit.id))
    .limit(f.limit)
    .offset(f.offset);
  return rows.map(({ entry: r, showName }) => ({
    id: r.id,
    product_id: r.productId,
    product_name: r.productName,
    barcode: r.barcode,
    quantity_change: r.quantityChange,
    quantity_before: r.quantityBefore,
    quantity_after: r.quantityAfter,
    transaction_type: r.transactionType,
    notes: r.notes,
    user_name: r.userName,
    user_id: r.userId,
    timestamp: r.timestamp.toISOString(),
    show_id: r.showId,
    show_name: showName,
    order_id: r.orderId,
    stock_take_id: r.stockTakeId,
  }));
}

/** Every account (active or not) for the audit view's user filter, by username. */
export async function listAuditUsers(db: Db): Promise<AuditUser[]> {
  return db.select({ id: users.id, username: users.username, role: users.role }).from(users).orderBy(asc(users.username), asc(users.id));
}
