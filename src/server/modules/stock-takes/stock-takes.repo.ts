import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { gtinKey } from "../../../contract/gtin.js";
import { QUANTITY_MAX_EXCLUSIVE } from "../../../contract/rules.js";
import type { Placement, StockTakeStatus } from "../../../contract/stock-takes.js";
import type { Db } from "../../db/client.js";
import { locations, products, quantityAudit, stockTakeLines, stockTakeScans, stockTakes } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";

/** The stock takes' statements (migration 0024): locations, sessions, scans and lines. */

export type LocationRow = typeof locations.$inferSelect;
export type StockTakeRow = typeof stockTakes.$inferSelect & { scans: number };
export type ScanRow = typeof stockTakeScans.$inferSelect;

/** A product and its location "belong together" when the texts match trimmed, in any case. */
const sameLocation = (a: ReturnType<typeof sql>, b: ReturnType<typeof sql>) => sql`lower(btrim(${a})) = lower(btrim(${b}))`;

// Locations ------------------------------------------------------------------------------------

export async function listLocations(db: Db): Promise<LocationRow[]> {
  return db
    .select()
    .from(locations)
    .orderBy(asc(sql`lower(${locations.name})`), asc(locations.id));
}

export async function findLocations(db: Db, ids: number[]): Promise<LocationRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(locations).where(inArray(locations.id, ids));
}

/** The new location, or undefined when one of that name (any case) exists. */
export async function insertLocation(db: Db, name: string): Promise<LocationRow | undefined> {
  const [row] = await db.insert(locations).values({ name }).onConflictDoNothing().returning();
  return row;
}

/** A location for every distinct product `location` text (trimmed; one per name in any case) not yet a location. */
export async function insertLocationsFromProducts(db: Db): Promise<LocationRow[]> {
  const result = await db.execute(sql`
    insert into locations (name)
    select distinct on (lower(btrim(p.location))) btrim(p.location)
      from products p
      where p.location is not null and btrim(p.location) <> ''
      order by lower(btrim(p.location)), btrim(p.location)
    on conflict do nothing
    returning id, name, created_at as "createdAt"`);
  return rowsOf<{ id: number; name: string; createdAt: Date | string }>(result).map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: new Date(r.createdAt),
  }));
}

// Sessions -------------------------------------------------------------------------------------

// Written out: drizzle names a lone table's columns unqualified, and inside this subquery "id"
// would be the scan's own id.
const scanCount = sql<number>`(select count(*) from stock_take_scans s where s.stock_take_id = stock_takes.id)`.mapWith(Number);

export async function insertStockTake(
  db: Db,
  values: { locationIds: number[] | null; startedById: number; startedBy: string },
): Promise<StockTakeRow> {
  const [row] = await db.insert(stockTakes).values(values).returning();
  if (!row) throw new Error("stock take insert answered nothing");
  return { ...row, scans: 0 };
}

export async function findStockTake(db: Db, id: number): Promise<StockTakeRow | undefined> {
  const [row] = await db
    .select({ ...stockTakeColumns(), scans: scanCount })
    .from(stockTakes)
    .where(eq(stockTakes.id, id));
  return row;
}

function stockTakeColumns() {
  return {
    id: stockTakes.id,
    status: stockTakes.status,
    locationIds: stockTakes.locationIds,
    startedById: stockTakes.startedById,
    startedBy: stockTakes.startedBy,
    startedAt: stockTakes.startedAt,
    finishedAt: stockTakes.finishedAt,
    approvedBy: stockTakes.approvedBy,
    approvalLeaseUntil: stockTakes.approvalLeaseUntil,
    approvalLeaseHolder: stockTakes.approvalLeaseHolder,
  };
}

export async function listStockTakes(db: Db, query: { status?: StockTakeStatus; limit: number; offset: number }): Promise<StockTakeRow[]> {
  return db
    .select({ ...stockTakeColumns(), scans: scanCount })
    .from(stockTakes)
    .where(query.status ? eq(stockTakes.status, query.status) : undefined)
    .orderBy(desc(stockTakes.startedAt), desc(stockTakes.id))
    .limit(query.limit)
    .offset(query.offset);
}

/**
 * The session's status under a lock until the end of the transaction: FOR SHARE for a scan (many
 * devices at once), FOR UPDATE for an approval or a cancel (which wait for the scans in flight, and
 * which the scans after them wait for, then find the session finished).
 */
export async function lockStockTake(db: Db, id: number, mode: "share" | "update"): Promise<StockTakeStatus | undefined> {
  const [row] = await db
    .select({ status: stockTakes.status })
    .from(stockTakes)
    .where(eq(stockTakes.id, id))
    .for(mode === "share" ? "share" : "update");
  return row?.status;
}

export async function setStockTakeStatus(db: Db, id: number, status: StockTakeStatus, approvedBy: string | null = null): Promise<void> {
  const finished = status === "approved" || status === "cancelled";
  await db
    .update(stockTakes)
    .set({ status, ...(finished ? { finishedAt: new Date() } : {}), ...(approvedBy ? { approvedBy } : {}) })
    .where(eq(stockTakes.id, id));
}

// Scans ----------------------------------------------------------------------------------------

export interface ScannedProduct {
  id: number;
  productName: string;
  location: string | null;
}

/**
 * The product a scanned barcode names (the exact barcode first, else another form of its GTIN),
 * locked FOR SHARE until the end of the transaction: no stock change to it commits between this
 * and the line's first-scan snapshot (recordCount), and two devices' scans may hold it together.
 */
export async function findAndShareLockProduct(db: Db, barcode: string): Promise<ScannedProduct | undefined> {
  const [row] = await db
    .select({ id: products.id, productName: products.productName, location: products.location })
    .from(products)
    .where(or(eq(products.barcodeKey, gtinKey(barcode)), eq(products.barcode, barcode)))
    .orderBy(sql`${products.barcode} = ${barcode} desc`)
    .limit(1)
    .for("share");
  return row;
}

/**
 * The scan, unless this session has one with its client_scan_id: then nothing (undefined). A
 * concurrent insert of the same id waits on the unique index until the first commits.
 */
export async function insertScan(db: Db, values: typeof stockTakeScans.$inferInsert): Promise<ScanRow | undefined> {
  const [row] = await db.insert(stockTakeScans).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findScan(db: Db, stockTakeId: number, clientScanId: string): Promise<ScanRow | undefined> {
  const [row] = await db
    .select()
    .from(stockTakeScans)
    .where(and(eq(stockTakeScans.stockTakeId, stockTakeId), eq(stockTakeScans.clientScanId, clientScanId)));
  return row;
}

export async function setScanAnswer(
  db: Db,
  id: number,
  answer: { result: string; countBefore: number; countedAfter: number },
): Promise<void> {
  await db.update(stockTakeScans).set(answer).where(eq(stockTakeScans.id, id));
}

/**
 * Adds `quantity` to the product's line and answers the line's count after it. The first scan
 * creates the line with the product's stock and its last quantity audit id as they are now: this
 * statement runs after findAndShareLockProduct took the row lock, so it sees every change that
 * committed before (READ COMMITTED: a new statement, a new snapshot) and none can commit until
 * this transaction ends; every later change gets a higher audit id. Two devices' first scans at
 * once both insert; the second waits on the primary key and adds its quantity to the first's line.
 */
export async function recordCount(db: Db, stockTakeId: number, productId: number, quantity: number): Promise<number> {
  const result = await db.execute(sql`
    insert into stock_take_lines (stock_take_id, product_id, base_quantity, base_audit_id, counted)
    select ${stockTakeId}, p.id, p.quantity_on_hand,
           coalesce((select max(q.id) from quantity_audit q where q.product_id = p.id), 0), ${quantity}
      from products p where p.id = ${productId}
    on conflict (stock_take_id, product_id) do update set counted = stock_take_lines.counted + excluded.counted
    returning counted`);
  const [row] = rowsOf<{ counted: number }>(result);
  if (!row) throw new Error("stock take line answered nothing");
  return Number(row.counted);
}

/** The quantity counted so far of a barcode the catalogue does not know, in this session. */
export async function unknownCounted(db: Db, stockTakeId: number, barcode: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${stockTakeScans.quantity}), 0)`.mapWith(Number) })
    .from(stockTakeScans)
    .where(
      and(
        eq(stockTakeScans.stockTakeId, stockTakeId),
        eq(stockTakeScans.barcode, barcode),
        sql`${stockTakeScans.productId} is null and ${stockTakeScans.droppedAt} is null`,
      ),
    );
  return row?.n ?? 0;
}

// Review and approval ----------------------------------------------------------------------------

export interface LineRow {
  productId: number;
  barcode: string;
  name: string;
  location: string | null;
  isActive: boolean;
  cost: number | null;
  price: number | null;
  counted: number;
  /** Stock at the first scan plus every change to it since, but this session's own approval. */
  expected: number;
  /** The product's stock now. */
  quantity: number;
  approvedExpected: number | null;
  applied: number | null;
  /** The approval's progress on it: pending, applied, refused; null when not in an approval. */
  approval: "pending" | "applied" | "refused" | null;
  /** Found away from its location and settled in the review: moved there, or kept (counted there). */
  placement: Placement | null;
  /** Names of the locations it was scanned in ("" for scans without one). */
  foundIn: string[];
  scanned: boolean;
}

interface RawLine {
  product_id: number;
  barcode: string;
  name: string;
  location: string | null;
  is_active: boolean;
  cost: number | null;
  price: number | null;
  counted: number;
  expected: number | string;
  quantity: number;
  approved_expected: number | null;
  applied: number | null;
  approval?: LineRow["approval"];
  placement?: Placement | null;
  found_in: string[] | string | null;
}

function toLine(r: RawLine, scanned: boolean): LineRow {
  const foundIn = r.found_in === null ? [] : typeof r.found_in === "string" ? (JSON.parse(r.found_in) as string[]) : r.found_in;
  return {
    productId: r.product_id,
    barcode: r.barcode,
    name: r.name,
    location: r.location,
    isActive: r.is_active,
    cost: r.cost,
    price: r.price,
    counted: Number(r.counted),
    expected: Number(r.expected),
    quantity: Number(r.quantity),
    approvedExpected: r.approved_expected,
    applied: r.applied,
    approval: r.approval ?? null,
    placement: r.placement ?? null,
    foundIn: [...foundIn].sort(),
    scanned,
  };
}

const foundInOf = (stockTakeId: number) => sql`(
  select json_agg(distinct coalesce(loc.name, ''))
    from stock_take_scans s left join locations loc on loc.id = s.location_id
    where s.stock_take_id = ${stockTakeId} and s.product_id = l.product_id)`;

/**
 * The session's lines (of these products, when given): expected is the stock at the first scan
 * plus the sum of the product's quantity audit changes after the first scan's audit position,
 * leaving out the changes this session's approval made.
 */
export async function linesOf(db: Db, stockTakeId: number, productIds?: number[]): Promise<LineRow[]> {
  if (productIds && productIds.length === 0) return [];
  const only = productIds ? sql`and l.product_id in (select json_array_elements_text(${JSON.stringify(productIds)}::json)::int)` : sql``;
  const result = await db.execute(sql`
    select l.product_id, p.barcode, p.product_name as name, p.location, p.is_active, p.cost, p.price, l.counted,
           l.base_quantity + coalesce((
             select sum(q.quantity_change) from quantity_audit q
              where q.product_id = l.product_id and q.id > l.base_audit_id
                and q.stock_take_id is distinct from l.stock_take_id), 0) as expected,
           p.quantity_on_hand as quantity, l.approved_expected, l.applied, l.approval, l.placement, ${foundInOf(stockTakeId)} as found_in
      from stock_take_lines l join products p on p.id = l.product_id
     where l.stock_take_id = ${stockTakeId} ${only}
     order by p.product_name, p.id`);
  return rowsOf<RawLine>(result).map((r) => toLine(r, true));
}

/**
 * Products the session's scope expects that were never scanned: active, with stock, in one of
 * these locations (their `location` text is a location's name) or anywhere (null: the whole shop).
 * Their expected figure is their stock now.
 */
export async function missingOf(db: Db, stockTakeId: number, locationIds: number[] | null, productIds?: number[]): Promise<LineRow[]> {
  if (productIds && productIds.length === 0) return [];
  const inScope =
    locationIds === null
      ? sql``
      : sql`and exists (select 1 from locations loc where loc.id in (select json_array_elements_text(${JSON.stringify(locationIds)}::json)::int)
                     and ${sameLocation(sql`loc.name`, sql`p.location`)})`;
  const only = productIds ? sql`and p.id in (select json_array_elements_text(${JSON.stringify(productIds)}::json)::int)` : sql``;
  const result = await db.execute(sql`
    select p.id as product_id, p.barcode, p.product_name as name, p.location, p.is_active, p.cost, p.price, 0 as counted,
           p.quantity_on_hand as expected, p.quantity_on_hand as quantity, null as approved_expected, null as applied, null as found_in
      from products p
     where p.is_active and p.quantity_on_hand > 0 ${inScope} ${only}
       and not exists (select 1 from stock_take_lines l where l.stock_take_id = ${stockTakeId} and l.product_id = p.id)
     order by p.product_name, p.id`);
  return rowsOf<RawLine>(result).map((r) => toLine(r, false));
}

export interface UnknownRow {
  barcode: string;
  counted: number;
  foundIn: string[];
}

/** Barcodes scanned in the session that named no product, with their counts (scans dropped in the review left out). */
export async function unknownScansOf(db: Db, stockTakeId: number): Promise<UnknownRow[]> {
  const result = await db.execute(sql`
    select s.barcode, sum(s.quantity)::int as counted, json_agg(distinct coalesce(loc.name, '')) as found_in
      from stock_take_scans s left join locations loc on loc.id = s.location_id
     where s.stock_take_id = ${stockTakeId} and s.product_id is null and s.dropped_at is null
     group by s.barcode order by s.barcode`);
  return rowsOf<{ barcode: string; counted: number; found_in: string[] | string }>(result).map((r) => ({
    barcode: r.barcode,
    counted: Number(r.counted),
    foundIn: (typeof r.found_in === "string" ? (JSON.parse(r.found_in) as string[]) : r.found_in).sort(),
  }));
}

/**
 * The products the catalogue has now for these barcodes (each barcode's exact match first, else
 * another form of its GTIN, as a scan finds them): an unknown barcode whose product was created since.
 */
export async function productsForBarcodes(db: Db, barcodes: string[]): Promise<Map<string, { id: number; name: string }>> {
  const found = new Map<string, { id: number; name: string }>();
  if (barcodes.length === 0) return found;
  const keys = barcodes.map((b) => gtinKey(b));
  const rows = await db
    .select({ id: products.id, name: products.productName, barcode: products.barcode, key: products.barcodeKey })
    .from(products)
    .where(
      or(
        sql`${products.barcode} in (select json_array_elements_text(${JSON.stringify(barcodes)}::json))`,
        sql`${products.barcodeKey} in (select json_array_elements_text(${JSON.stringify(keys)}::json))`,
      ),
    );
  barcodes.forEach((barcode, i) => {
    const row = rows.find((r) => r.barcode === barcode) ?? rows.find((r) => r.key !== null && r.key === keys[i]);
    if (row) found.set(barcode, { id: row.id, name: row.name });
  });
  return found;
}

export async function productExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.id, id));
  return row !== undefined;
}

/** Settles a misplaced product's line: moved to where it was found, or kept (counted there). */
export async function setPlacement(db: Db, stockTakeId: number, productId: number, placement: Placement): Promise<void> {
  await db
    .update(stockTakeLines)
    .set({ placement })
    .where(and(eq(stockTakeLines.stockTakeId, stockTakeId), eq(stockTakeLines.productId, productId)));
}

/**
 * The unknown scans of `barcode` (not dropped) become the product's: answers the quantity they
 * counted (0 when there were none).
 */
export async function linkUnknownScans(db: Db, stockTakeId: number, barcode: string, productId: number): Promise<number> {
  const result = await db.execute(sql`
    with linked as (
      update stock_take_scans set product_id = ${productId}
       where stock_take_id = ${stockTakeId} and barcode = ${barcode} and product_id is null and dropped_at is null
       returning quantity)
    select coalesce(sum(quantity), 0)::int as counted from linked`);
  const [row] = rowsOf<{ counted: number }>(result);
  return Number(row?.counted ?? 0);
}

/** The unknown scans of `barcode` (not dropped yet) marked dropped: kept for the record, out of the review. Answers how many. */
export async function dropUnknownScans(db: Db, stockTakeId: number, barcode: string, droppedBy: string): Promise<number> {
  const rows = await db
    .update(stockTakeScans)
    .set({ droppedAt: sql`clock_timestamp()`, droppedBy })
    .where(
      and(
        eq(stockTakeScans.stockTakeId, stockTakeId),
        eq(stockTakeScans.barcode, barcode),
        sql`${stockTakeScans.productId} is null and ${stockTakeScans.droppedAt} is null`,
      ),
    )
    .returning({ id: stockTakeScans.id });
  return rows.length;
}

/**
 * Takes the approval's lease for `holder` until `leaseMs` from now when it is free: never taken,
 * released, expired (its approver crashed or restarted), or already this holder's. False when
 * another approver holds it unexpired. The caller holds the session FOR UPDATE.
 */
export async function takeApprovalLease(db: Db, stockTakeId: number, holder: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(stockTakes)
    .set({ approvalLeaseUntil: leaseEnd(leaseMs), approvalLeaseHolder: holder })
    .where(
      and(
        eq(stockTakes.id, stockTakeId),
        sql`(${stockTakes.approvalLeaseUntil} is null or ${stockTakes.approvalLeaseUntil} <= clock_timestamp() or ${stockTakes.approvalLeaseHolder} = ${holder})`,
      ),
    )
    .returning({ id: stockTakes.id });
  return rows.length > 0;
}

/**
 * Renews the lease while `holder` still has it and the session is approving (a batch's first
 * statement: the session row is locked until the batch commits, so nobody takes the lease over
 * while a batch runs). False when it was taken over.
 */
export async function renewApprovalLease(db: Db, stockTakeId: number, holder: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(stockTakes)
    .set({ approvalLeaseUntil: leaseEnd(leaseMs) })
    .where(and(eq(stockTakes.id, stockTakeId), eq(stockTakes.approvalLeaseHolder, holder), eq(stockTakes.status, "approving")))
    .returning({ id: stockTakes.id });
  return rows.length > 0;
}

/** Gives the lease up (the approval ended, or failed: another may resume it at once). */
export async function releaseApprovalLease(db: Db, stockTakeId: number, holder: string): Promise<void> {
  await db
    .update(stockTakes)
    .set({ approvalLeaseUntil: null, approvalLeaseHolder: null })
    .where(and(eq(stockTakes.id, stockTakeId), eq(stockTakes.approvalLeaseHolder, holder)));
}

const leaseEnd = (leaseMs: number) => sql`clock_timestamp() + make_interval(secs => ${leaseMs / 1000}::double precision)`;

/** The ids as one JSON parameter (a whole shop's products are more than a statement's 65,535 parameters). */
const idList = (ids: number[]) => sql`(select json_array_elements_text(${JSON.stringify(ids)}::json)::int)`;

/** Products locked FOR UPDATE in id order (racing writers never deadlock), until the end of the transaction. */
export async function lockProducts(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .select({ id: products.id })
    .from(products)
    .where(sql`${products.id} in ${idList(ids)}`)
    .orderBy(asc(products.id))
    .for("update");
}

/**
 * The start of an approval (the session locked FOR UPDATE by the caller): lines for the missing
 * products (counted 0; their stock and audit position are taken again under their batch's row
 * locks, refreshMissingBases), then every line of the approval (those of `productIds`, or all)
 * marked `pending`.
 */
export async function markApprovalPending(
  db: Db,
  stockTakeId: number,
  missingIds: number[],
  productIds: number[] | undefined,
): Promise<void> {
  if (missingIds.length > 0) {
    await db.execute(sql`
      insert into stock_take_lines (stock_take_id, product_id, base_quantity, base_audit_id, counted)
      select ${stockTakeId}, p.id, p.quantity_on_hand, 0, 0 from products p where p.id in ${idList(missingIds)}
      on conflict do nothing`);
  }
  const only = productIds ? sql`and product_id in ${idList(productIds)}` : sql``;
  await db.execute(sql`
    update stock_take_lines set approval = 'pending' where stock_take_id = ${stockTakeId} and approval is null ${only}`);
}

/** The products an approval has still to apply, in id order. */
export async function pendingProductIds(db: Db, stockTakeId: number): Promise<number[]> {
  const result = await db.execute(sql`
    select product_id from stock_take_lines where stock_take_id = ${stockTakeId} and approval = 'pending' order by product_id`);
  return rowsOf<{ product_id: number }>(result).map((r) => Number(r.product_id));
}

/**
 * A pending line nobody scanned (a missing product) takes its product's stock and last audit id
 * now, under the batch's row locks: every change committed before is in it, every later one has
 * a higher id (as a first scan's snapshot, recordCount).
 */
export async function refreshMissingBases(db: Db, stockTakeId: number, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await db.execute(sql`
    update stock_take_lines l set base_quantity = p.quantity_on_hand,
           base_audit_id = coalesce((select max(q.id) from quantity_audit q where q.product_id = p.id), 0)
      from products p
     where l.stock_take_id = ${stockTakeId} and l.product_id = p.id and l.product_id in ${idList(productIds)}
       and l.approval = 'pending' and l.counted = 0
       and not exists (select 1 from stock_take_scans s where s.stock_take_id = l.stock_take_id and s.product_id = l.product_id)`);
}

/** Records what the approval did to a line: the expected figure then and the change applied (or refused: applied stays NULL). */
export async function markLinesApproved(
  db: Db,
  stockTakeId: number,
  lines: Array<{ productId: number; expected: number; applied: number | null }>,
) {
  if (lines.length === 0) return;
  await db.execute(sql`
    update stock_take_lines l set approved_expected = v.expected, applied = v.applied,
           approval = case when v.applied is null then 'refused' else 'applied' end
      from json_to_recordset(${JSON.stringify(lines.map((l) => ({ product_id: l.productId, expected: l.expected, applied: l.applied })))}::json)
           as v(product_id int, expected int, applied int)
     where l.stock_take_id = ${stockTakeId} and l.product_id = v.product_id`);
}

/**
 * Marks the quantity audit rows the approval just wrote (each product's latest: the products are
 * locked by this transaction, so no other change to them can have been written since) as the
 * session's, so the audit carries the session and the expected figure leaves them out.
 */
export async function tagAuditWithStockTake(db: Db, stockTakeId: number, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .update(quantityAudit)
    .set({ stockTakeId })
    .where(
      inArray(
        quantityAudit.id,
        db
          .select({ id: sql`max(${quantityAudit.id})` })
          .from(quantityAudit)
          .where(sql`${quantityAudit.productId} in ${idList(productIds)}`)
          .groupBy(quantityAudit.productId),
      ),
    );
}

// Shrinkage ------------------------------------------------------------------------------------

export interface ShrinkageSums {
  period: string;
  stockTakes: number;
  difference: number;
  missing: number;
  extra: number;
  valueAtCost: number;
  missingAtCost: number;
  extraAtCost: number;
}

/**
 * The approved stock take differences (quantity audit rows carrying a stock_take_id) of the days
 * [from, to] in `tz`, summed per day, week (from Monday) or month; at each product's cost now
 * (0 without one, or for a product deleted since). Only periods with changes.
 */
export async function shrinkageByPeriod(
  db: Db,
  q: { from: string; to: string; by: "day" | "week" | "month"; tz: string },
): Promise<ShrinkageSums[]> {
  const result = await db.execute(sql`
    select date_trunc(${q.by}, (a.timestamp at time zone ${q.tz}))::date::text as period,
           count(distinct a.stock_take_id)::int as stock_takes,
           sum(a.quantity_change)::int as difference,
           sum(greatest(-a.quantity_change, 0))::int as missing,
           sum(greatest(a.quantity_change, 0))::int as extra,
           sum(a.quantity_change * coalesce(p.cost, 0))::bigint as value_at_cost,
           sum(greatest(-a.quantity_change, 0) * coalesce(p.cost, 0))::bigint as missing_at_cost,
           sum(greatest(a.quantity_change, 0) * coalesce(p.cost, 0))::bigint as extra_at_cost
      from quantity_audit a left join products p on p.id = a.product_id
     where a.stock_take_id is not null
       and a.timestamp >= (${q.from}::date::timestamp at time zone ${q.tz})
       and a.timestamp < ((${q.to}::date + 1)::timestamp at time zone ${q.tz})
     group by 1 order by 1`);
  return rowsOf<Record<string, string | number>>(result).map((r) => ({
    period: String(r.period),
    stockTakes: Number(r.stock_takes),
    difference: Number(r.difference),
    missing: Number(r.missing),
    extra: Number(r.extra),
    valueAtCost: Number(r.value_at_cost),
    missingAtCost: Number(r.missing_at_cost),
    extraAtCost: Number(r.extra_at_cost),
  }));
}

/**
 * Each change through apply_quantity_change() (the one stock path: its checks, both audit rows and
 * their webhooks), all in one statement in product order, so a batch of an approval is a few round
 * trips however many products it has. Answers each product's answer body (the product, or a refusal).
 */
export async function applyQuantityChanges(
  db: Db,
  changes: Array<{ productId: number; delta: number }>,
  who: { reason: string; userId: number; userName: string; ip: string },
): Promise<Array<{ productId: number; status: number; body: unknown }>> {
  if (changes.length === 0) return [];
  const result = await db.execute(sql`
    select (v.change->>'product_id')::int as product_id, a.status, a.body
      from json_array_elements(${JSON.stringify(changes.map((c) => ({ product_id: c.productId, delta: c.delta })))}::json)
           with ordinality as v(change, n)
     cross join lateral apply_quantity_change((v.change->>'product_id')::int, (v.change->>'delta')::int, null::integer, ${QUANTITY_MAX_EXCLUSIVE}::integer, ${who.reason}::text,
           ${who.userId}::integer, ${who.userName}::text, ${who.ip}::text, null::text, null::text, null::integer, null::integer, null::integer) a
     order by v.n`);
  return rowsOf<{ product_id: number; status: number; body: unknown }>(result).map((r) => ({
    productId: Number(r.product_id),
    status: Number(r.status),
    body: typeof r.body === "string" ? JSON.parse(r.body) : r.body,
  }));
}

/** The products the session has lines for, in id order. */
export async function lineProductIds(db: Db, stockTakeId: number): Promise<number[]> {
  const result = await db.execute(sql`select product_id from stock_take_lines where stock_take_id = ${stockTakeId} order by product_id`);
  return rowsOf<{ product_id: number }>(result).map((r) => Number(r.product_id));
}
