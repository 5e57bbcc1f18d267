import { randomUUID } from "node:crypto";
import type { Product } from "../../../contract/products.js";
import { seesCost } from "../../../contract/report-rules.js";
import type { SalesQuery } from "../../../contract/reports.js";
import {
  APPROVAL_BATCH_SIZE,
  type ApproveStockTakeBody,
  type DropUnknownAnswer,
  type DropUnknownBody,
  type KeepMisplacedBody,
  type LinkUnknownBody,
  type Location,
  type LocationsFromProductsAnswer,
  type MoveMisplacedBody,
  type ReviewLine,
  type Scan,
  type ScanAnswer,
  type ScanResult,
  type ScansAnswer,
  type ScansBody,
  type ShrinkageAnswer,
  type ShrinkageRow,
  STOCK_TAKE_MESSAGES,
  type StartStockTakeBody,
  type StockTake,
  type StockTakeReview,
  type StockTakesQuery,
  type StockTakeUpdate,
  scansBodySchema,
  stockTakeReason,
} from "../../../contract/stock-takes.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { type CommittedProduct, stockChanged } from "../products/product-changes.js";
import { updateProductIn } from "../products/product-edit.service.js";
import {
  applyQuantityChanges,
  dropUnknownScans,
  findAndShareLockProduct,
  findLocations,
  findScan,
  findStockTake,
  insertLocation,
  insertLocationsFromProducts,
  insertScan,
  insertStockTake,
  type LineRow,
  type LocationRow,
  lineProductIds,
  linesOf,
  linkUnknownScans,
  listLocations,
  listStockTakes,
  lockProducts,
  lockStockTake,
  markApprovalPending,
  markLinesApproved,
  missingOf,
  pendingProductIds,
  productExists,
  productsForBarcodes,
  recordCount,
  refreshMissingBases,
  releaseApprovalLease,
  renewApprovalLease,
  type ScanRow,
  type StockTakeRow,
  setPlacement,
  setScanAnswer,
  setStockTakeStatus,
  shrinkageByPeriod,
  tagAuditWithStockTake,
  takeApprovalLease,
  unknownCounted,
  unknownScansOf,
} from "./stock-takes.repo.js";

/** Inventory staff, managers and super_admin count (and start, and cancel); a token needs stock_takes:write. */
const COUNT = ["canManageProducts", "stock_takes:write"] as const;
/** Managers and super_admin approve; a token with stock_takes:write while its maker is one. */
const APPROVE = ["canManageIntegrations", "stock_takes:write"] as const;

const MAX_ID = 2_147_483_647;

const toLocation = (row: LocationRow): Location => ({ id: row.id, name: row.name, created_at: row.createdAt.toISOString() });

export function toStockTake(row: StockTakeRow): StockTake {
  return {
    id: row.id,
    number: row.id,
    status: row.status,
    scope: row.locationIds === null ? { whole_shop: true } : { location_ids: row.locationIds },
    started_by: row.startedBy,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    approved_by: row.approvedBy,
    scans: row.scans,
  };
}

function toScan(row: ScanRow): Scan {
  return {
    id: row.id,
    session_id: row.stockTakeId,
    barcode: row.barcode,
    product_id: row.productId,
    location_id: row.locationId,
    quantity: row.quantity,
    device: row.device,
    user: row.userName,
    scanned_at: row.scannedAt.toISOString(),
    client_scan_id: row.clientScanId,
  };
}

function emit(ctx: ServiceContext, type: StockTakeUpdate["type"], stockTake: StockTake, scans?: ScanAnswer[]): void {
  ctx.events.emit("stock_take_update", {
    type,
    stock_take: stockTake,
    ...(scans ? { scans } : {}),
    timestamp: new Date().toISOString(),
    userId: ctx.actor.id,
  });
}

async function stockTakeOrThrow(ctx: ServiceContext, id: number): Promise<StockTakeRow> {
  const row = id > MAX_ID ? undefined : await findStockTake(ctx.db, id);
  if (!row) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  return row;
}

const sameName = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

// Locations ------------------------------------------------------------------------------------

export async function getLocations(ctx: ServiceContext): Promise<Location[]> {
  requirePermission(ctx, ...COUNT);
  return (await listLocations(ctx.db)).map(toLocation);
}

export async function createLocation(ctx: ServiceContext, name: string): Promise<Location> {
  requirePermission(ctx, ...COUNT);
  const row = await insertLocation(ctx.db, name);
  if (!row) throw conflict(STOCK_TAKE_MESSAGES.locationTaken);
  return toLocation(row);
}

/** Turns the products' distinct `location` texts into locations (those not yet one); the products keep their text. */
export async function locationsFromProducts(ctx: ServiceContext): Promise<LocationsFromProductsAnswer> {
  requirePermission(ctx, ...COUNT);
  const created = await insertLocationsFromProducts(ctx.db);
  return { created: created.map(toLocation), locations: (await listLocations(ctx.db)).map(toLocation) };
}

// Sessions -------------------------------------------------------------------------------------

export async function startStockTake(ctx: ServiceContext, body: StartStockTakeBody): Promise<StockTake> {
  requirePermission(ctx, ...COUNT);
  let locationIds: number[] | null = null;
  if ("location_ids" in body.scope) {
    locationIds = [...new Set(body.scope.location_ids)].sort((a, b) => a - b);
    if ((await findLocations(ctx.db, locationIds)).length !== locationIds.length) throw badRequest(STOCK_TAKE_MESSAGES.unknownLocations);
  }
  const row = await insertStockTake(ctx.db, { locationIds, startedById: ctx.actor.id, startedBy: ctx.actor.username });
  const stockTake = toStockTake(row);
  emit(ctx, "stock_take_started", stockTake);
  return stockTake;
}

export async function listSessions(ctx: ServiceContext, query: StockTakesQuery): Promise<StockTake[]> {
  requirePermission(ctx, ...COUNT);
  return (await listStockTakes(ctx.db, query)).map(toStockTake);
}

export async function getStockTake(ctx: ServiceContext, id: number): Promise<StockTake> {
  requirePermission(ctx, ...COUNT);
  return toStockTake(await stockTakeOrThrow(ctx, id));
}

/** Counting ends: no more scans; the session waits for a manager's approval (or a cancel). */
export async function finishCounting(ctx: ServiceContext, id: number): Promise<StockTake> {
  requirePermission(ctx, ...COUNT);
  await stockTakeOrThrow(ctx, id);
  await withTransaction(ctx.db, async (tx) => {
    const status = await lockStockTake(tx, id, "update");
    if (status !== "counting") throw conflict(STOCK_TAKE_MESSAGES.notCounting);
    await setStockTakeStatus(tx, id, "review");
  });
  const stockTake = toStockTake(await stockTakeOrThrow(ctx, id));
  emit(ctx, "stock_take_scanned", stockTake);
  return stockTake;
}

export async function cancelStockTake(ctx: ServiceContext, id: number): Promise<StockTake> {
  requirePermission(ctx, ...COUNT);
  await stockTakeOrThrow(ctx, id);
  await withTransaction(ctx.db, async (tx) => {
    const status = await lockStockTake(tx, id, "update");
    if (status === "approved" || status === "cancelled") throw conflict(STOCK_TAKE_MESSAGES.finished);
    if (status === "approving") throw conflict(STOCK_TAKE_MESSAGES.approving);
    await setStockTakeStatus(tx, id, "cancelled");
  });
  const stockTake = toStockTake(await stockTakeOrThrow(ctx, id));
  emit(ctx, "stock_take_cancelled", stockTake);
  return stockTake;
}

// Scans ----------------------------------------------------------------------------------------

function answerOf(row: ScanRow, product: { id: number; productName: string } | undefined, replayed: boolean): ScanAnswer {
  return {
    client_scan_id: row.clientScanId,
    result: (row.result ?? "found") as ScanResult,
    product_id: row.productId,
    product_name: product?.productName ?? null,
    count: row.countBefore,
    counted: row.countedAfter,
    replayed,
    scan: toScan(row),
  };
}

/**
 * Records scans in the order sent, each in its own short transaction (a scan locks one product,
 * so devices scanning in different orders never deadlock): a client_scan_id the session has
 * answers its first answer again and counts nothing (an offline queue's replay). Each scan holds
 * the session FOR SHARE (an approval or a cancel waits for it, and a scan after them is refused)
 * and its product FOR SHARE while its line takes the first-scan snapshot (recordCount).
 */
export async function recordScans(ctx: ServiceContext, id: number, input: ScansBody): Promise<ScansAnswer> {
  requirePermission(ctx, ...COUNT);
  const body = scansBodySchema.parse(input);
  // Not read first: the session's lock below answers 404 (one round trip less per scan).
  if (id > MAX_ID) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  const locationIds = [...new Set(body.scans.flatMap((s) => (s.location_id === undefined ? [] : [s.location_id])))];
  const known = new Map((await findLocations(ctx.db, locationIds)).map((l) => [l.id, l.name]));
  if (known.size !== locationIds.length) throw badRequest(STOCK_TAKE_MESSAGES.unknownLocations);

  const answers: ScanAnswer[] = [];
  for (const scan of body.scans) {
    const answer = await withTransaction(ctx.db, async (tx) => {
      const status = await lockStockTake(tx, id, "share");
      if (status === undefined) throw notFound(STOCK_TAKE_MESSAGES.notFound);
      if (status !== "counting") {
        const existing = await findScan(tx, id, scan.client_scan_id);
        if (existing) return answerOf(existing, await productNameOf(tx, existing), true);
        throw conflict(STOCK_TAKE_MESSAGES.notCounting);
      }
      // A replay while counting is found by the insert (its client_scan_id is taken), below.
      const product = await findAndShareLockProduct(tx, scan.barcode);
      const row = await insertScan(tx, {
        stockTakeId: id,
        clientScanId: scan.client_scan_id,
        barcode: scan.barcode,
        productId: product?.id ?? null,
        locationId: scan.location_id ?? null,
        quantity: scan.quantity,
        device: body.device ?? null,
        userId: ctx.actor.id,
        userName: ctx.actor.username,
      });
      if (!row) {
        // The same id sent at once from elsewhere committed first: its answer, nothing counted twice.
        const first = await findScan(tx, id, scan.client_scan_id);
        if (!first) throw new Error("scan conflict without a scan");
        return answerOf(first, product, true);
      }
      let result: ScanResult;
      let counted: number;
      if (!product) {
        counted = await unknownCounted(tx, id, scan.barcode);
        result = "unknown";
      } else {
        counted = await recordCount(tx, id, product.id, scan.quantity);
        const here = scan.location_id === undefined ? undefined : known.get(scan.location_id);
        if (counted - scan.quantity > 0) result = "already_counted";
        else if (here !== undefined && !sameName(here, product.location)) result = "new_to_location";
        else result = "found";
      }
      const answered = { result, countBefore: counted - scan.quantity, countedAfter: counted };
      await setScanAnswer(tx, row.id, answered);
      return answerOf({ ...row, ...answered }, product, false);
    });
    answers.push(answer);
  }
  const stockTake = toStockTake(await stockTakeOrThrow(ctx, id));
  const fresh = answers.filter((a) => !a.replayed);
  if (fresh.length > 0) emit(ctx, "stock_take_scanned", stockTake, fresh);
  return { scans: answers, stock_take: stockTake };
}

async function productNameOf(tx: ServiceContext["db"], row: ScanRow): Promise<{ id: number; productName: string } | undefined> {
  if (row.productId === null) return undefined;
  const lines = await linesOf(tx, row.stockTakeId, [row.productId]);
  const line = lines[0];
  return line ? { id: line.productId, productName: line.name } : undefined;
}

// Review and approval ----------------------------------------------------------------------------

function moneyOf(difference: number, unit: number | null): number | null {
  return unit === null ? null : difference * unit;
}

/** Scanned in a location other than its own (whether or not the review has settled it since). */
const foundElsewhere = (line: LineRow) => line.foundIn.some((name) => name !== "" && !sameName(name, line.location));

function reviewLine(line: LineRow): ReviewLine {
  const expected = line.approvedExpected ?? line.expected;
  const difference = line.counted - expected;
  let status: ReviewLine["status"] = "counted";
  if (!line.scanned || (line.counted === 0 && line.foundIn.length === 0)) status = "missing";
  else if (line.placement === null && foundElsewhere(line)) status = "misplaced";
  return {
    product_id: line.productId,
    barcode: line.barcode,
    name: line.name,
    location: line.location,
    found_in: line.foundIn,
    expected,
    counted: line.counted,
    difference,
    value_at_cost: moneyOf(difference, line.cost),
    value_at_price: moneyOf(difference, line.price),
    status,
    applied: line.applied,
    placement: line.placement,
  };
}

function sums(lines: ReviewLine[]) {
  return {
    lines: lines.length,
    difference: lines.reduce((n, l) => n + l.difference, 0),
    value_at_cost: lines.reduce((n, l) => n + (l.value_at_cost ?? 0), 0),
    value_at_price: lines.reduce((n, l) => n + (l.value_at_price ?? 0), 0),
  };
}

/**
 * The differences before anything changes: every product counted (expected: its stock at its
 * first scan moved by every stock change since), every product the scope expects and nobody
 * scanned (while the session is open), and the unknown barcodes; summed per location and in all.
 * A finished session shows what its approval recorded.
 */
export async function reviewStockTake(ctx: ServiceContext, id: number): Promise<StockTakeReview> {
  requirePermission(ctx, ...COUNT);
  const row = await stockTakeOrThrow(ctx, id);
  const open = row.status === "counting" || row.status === "review";
  const rows = await linesOf(ctx.db, id);
  const refused = rows.filter((l) => l.approval === "refused").map((l) => l.productId);
  const lines = [...rows, ...(open ? await missingOf(ctx.db, id, row.locationIds) : [])].map(reviewLine);
  const unknownRows = await unknownScansOf(ctx.db, id);
  const inCatalogue = await productsForBarcodes(
    ctx.db,
    unknownRows.map((u) => u.barcode),
  );
  const unknown: ReviewLine[] = unknownRows.map((u) => ({
    product_id: null,
    barcode: u.barcode,
    name: null,
    location: null,
    found_in: u.foundIn,
    expected: 0,
    counted: u.counted,
    difference: u.counted,
    value_at_cost: null,
    value_at_price: null,
    status: "unknown",
    applied: null,
    catalogue_product: inCatalogue.get(u.barcode) ?? null,
  }));
  const all = [...lines, ...unknown];
  // Per location: a product's text as the location's name when it is one (any case), else as written.
  const named = new Map((await listLocations(ctx.db)).map((l) => [l.name.trim().toLowerCase(), l.name]));
  const byLocation = new Map<string, ReviewLine[]>();
  for (const line of lines) {
    const text = (line.location ?? "").trim();
    const key = named.get(text.toLowerCase()) ?? text;
    byLocation.set(key, [...(byLocation.get(key) ?? []), line]);
  }
  return {
    stock_take: toStockTake(row),
    lines: all,
    locations: [...byLocation.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([location, ls]) => ({ location, ...sums(ls) })),
    totals: sums(lines),
    ...(refused.length > 0 ? { refused_product_ids: refused } : {}),
  };
}

/**
 * How long an approval's lease lasts without a batch renewing it: a second approval sent meanwhile
 * gets 409; once it has expired (the approver crashed or restarted) approving again takes it over.
 */
export const APPROVAL_LEASE_MS = 30_000;

export interface ApprovalOptions {
  /** The lease's length (APPROVAL_LEASE_MS); tests take a short one rather than waiting half a minute. */
  leaseMs?: number;
}

// Review actions -------------------------------------------------------------------------------

/**
 * The session of a review action, FOR SHARE until the action commits (an approval or a cancel
 * waits for it; an action after they began is refused): 409 unless counting or in review.
 */
async function lockOpenSession(tx: ServiceContext["db"], id: number): Promise<void> {
  const status = await lockStockTake(tx, id, "share");
  if (status === undefined) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  if (status !== "counting" && status !== "review") throw conflict(STOCK_TAKE_MESSAGES.notOpen);
}

async function scannedLine(tx: ServiceContext["db"], id: number, productId: number): Promise<LineRow> {
  const [line] = await linesOf(tx, id, [productId]);
  if (!line) throw conflict(STOCK_TAKE_MESSAGES.notMisplaced);
  return line;
}

async function lineAnswer(tx: ServiceContext["db"], id: number, productId: number): Promise<ReviewLine> {
  return reviewLine(await scannedLine(tx, id, productId));
}

async function reviewed(ctx: ServiceContext, id: number): Promise<void> {
  emit(ctx, "stock_take_reviewed", toStockTake(await stockTakeOrThrow(ctx, id)));
}

/**
 * "Move": a product found away from its location gets the location it was found in (one of its
 * found_in names) through the products' one edit path (updateProductIn, in this transaction:
 * audited, live events and webhooks, version and revision moved, as any edit), and its line is
 * settled `moved`: a counted line. 409 when it was not scanned there.
 */
export async function moveMisplaced(ctx: ServiceContext, id: number, body: MoveMisplacedBody): Promise<ReviewLine> {
  requirePermission(ctx, ...COUNT);
  if (id > MAX_ID) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  const line = await withTransaction(ctx.db, async (tx, afterCommit) => {
    await lockOpenSession(tx, id);
    const current = await scannedLine(tx, id, body.product_id);
    if (current.placement === null && !foundElsewhere(current)) throw conflict(STOCK_TAKE_MESSAGES.notMisplaced);
    const there = current.foundIn.find((name) => name !== "" && sameName(name, body.location));
    if (there === undefined) throw conflict(STOCK_TAKE_MESSAGES.notFoundThere);
    await updateProductIn(ctx, tx, afterCommit, body.product_id, { location: there });
    await setPlacement(tx, id, body.product_id, "moved");
    return lineAnswer(tx, id, body.product_id);
  });
  await reviewed(ctx, id);
  return line;
}

/** "Count here": a product found away from its location is counted where it was found; it keeps its location. */
export async function keepMisplaced(ctx: ServiceContext, id: number, body: KeepMisplacedBody): Promise<ReviewLine> {
  requirePermission(ctx, ...COUNT);
  if (id > MAX_ID) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  const line = await withTransaction(ctx.db, async (tx) => {
    await lockOpenSession(tx, id);
    const current = await scannedLine(tx, id, body.product_id);
    if (!foundElsewhere(current)) throw conflict(STOCK_TAKE_MESSAGES.notMisplaced);
    await setPlacement(tx, id, body.product_id, "kept");
    return lineAnswer(tx, id, body.product_id);
  });
  await reviewed(ctx, id);
  return line;
}

/**
 * The unknown scans of a barcode become the scans of the product that has it now (created from
 * the review, or elsewhere): the product is found as a scan finds it and locked FOR SHARE, and
 * its line gets their count with its expected figure taken now, as at a first scan (recordCount).
 * A product without a location is counted where it was found (settled `kept`). 404 without such
 * a product; 409 when the product does not have this barcode, or there are no unknown scans of it.
 */
export async function linkUnknown(ctx: ServiceContext, id: number, body: LinkUnknownBody): Promise<ReviewLine> {
  requirePermission(ctx, ...COUNT);
  if (id > MAX_ID) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  const line = await withTransaction(ctx.db, async (tx) => {
    await lockOpenSession(tx, id);
    const product = await findAndShareLockProduct(tx, body.barcode);
    if (!product || product.id !== body.product_id) {
      if (!(await productExists(tx, body.product_id))) throw notFound(STOCK_TAKE_MESSAGES.productNotFound);
      throw conflict(STOCK_TAKE_MESSAGES.notThisBarcode);
    }
    const counted = await linkUnknownScans(tx, id, body.barcode, product.id);
    if (counted === 0) throw conflict(STOCK_TAKE_MESSAGES.noUnknownScans);
    await recordCount(tx, id, product.id, counted);
    if ((product.location ?? "").trim() === "") await setPlacement(tx, id, product.id, "kept");
    return lineAnswer(tx, id, product.id);
  });
  await reviewed(ctx, id);
  return line;
}

/** The unknown scans of a barcode are dropped: kept for the record, left out of the review and the report. 409 when there are none. */
export async function dropUnknown(ctx: ServiceContext, id: number, body: DropUnknownBody): Promise<DropUnknownAnswer> {
  requirePermission(ctx, ...COUNT);
  if (id > MAX_ID) throw notFound(STOCK_TAKE_MESSAGES.notFound);
  const dropped = await withTransaction(ctx.db, async (tx) => {
    await lockOpenSession(tx, id);
    const n = await dropUnknownScans(tx, id, body.barcode, ctx.actor.username);
    if (n === 0) throw conflict(STOCK_TAKE_MESSAGES.noUnknownScans);
    return n;
  });
  await reviewed(ctx, id);
  return { barcode: body.barcode, dropped };
}

/** Whether a line's product cannot take its change: disabled, or its stock would go below 0. */
const cannotTake = (line: LineRow) => {
  const difference = line.counted - line.expected;
  return difference !== 0 && (!line.isActive || line.quantity + difference < 0);
};

/**
 * Applies the approved differences (the products named, or every counted and missing product)
 * through apply_quantity_change(), as any stock change: quantity audit rows with the reason
 * `Stock take #N` carrying the session's id, their webhooks written by the audit's trigger, the
 * live events after each commit. A sale never waits for it (docs/architecture.md):
 *
 * 1. A check first, without locks: a product that cannot take its change (disabled, or its stock
 *    would go below 0) refuses the approval with 409 and its product_ids; nothing changes.
 * 2. beginApproval, one short transaction: the session FOR UPDATE, then `approving` with each
 *    chosen line marked `pending` (missing products get their lines) and the approval's lease
 *    taken (approval_lease_until, approval_lease_holder: this approval's random id). The state is
 *    the database's alone, so any server process answers alike: a second approval sent at once
 *    waits for that lock, then finds the session approving under a lease not expired: 409. One
 *    finding the lease expired (its approver crashed or restarted, and no batch renewed it for
 *    `leaseMs`) takes it over and resumes the pending lines.
 * 3. runApproval: batches of up to APPROVAL_BATCH_SIZE products (nextBatchSize), each its own
 *    transaction after yieldToPeople, which first renews the lease (the session row stays locked
 *    until the batch commits: nobody takes the lease over mid-batch; a lease taken over stops this
 *    approval with 409 and rolls the batch back), then the products FOR UPDATE in id order, each
 *    expected figure read again under the locks, the changes applied and tagged with the session,
 *    the lines marked `applied`; stockChanged after its commit. A batch works only on lines still
 *    `pending`, so a line is applied once whoever runs it. A product refused then (it changed
 *    since the check) is marked `refused` and reported in the answer's refused_product_ids.
 * 4. `approved` when no line is pending, and the lease released. An approval that fails releases
 *    its lease (approving again resumes at once); one cut off leaves the session `approving`
 *    until its lease expires.
 */
export async function approveStockTake(
  ctx: ServiceContext,
  database: Database,
  id: number,
  body: ApproveStockTakeBody,
  options: ApprovalOptions = {},
): Promise<StockTakeReview> {
  const holder = await beginApproval(ctx, database, id, body, options);
  await runApproval(ctx, database, id, holder, options);
  const review = await reviewStockTake(ctx, id);
  emit(ctx, "stock_take_approved", review.stock_take);
  return review;
}

/**
 * Steps 1 and 2 of approveStockTake: the check, then the session `approving` with its lines
 * pending and the lease this approval's. Answers the lease's holder id for runApproval.
 */
export async function beginApproval(
  ctx: ServiceContext,
  database: Database,
  id: number,
  body: ApproveStockTakeBody,
  options: ApprovalOptions = {},
): Promise<string> {
  requirePermission(ctx, ...APPROVE);
  const leaseMs = options.leaseMs ?? APPROVAL_LEASE_MS;
  const session = await stockTakeOrThrow(ctx, id);
  if (session.status === "approved" || session.status === "cancelled") throw conflict(STOCK_TAKE_MESSAGES.finished);
  const chosen = body.product_ids ? [...new Set(body.product_ids)] : undefined;

  let missing: number[] = [];
  if (session.status !== "approving") {
    // In pieces, as the batches: a whole shop's lines in one statement held the embedded database for seconds.
    const lineIds = chosen ?? (await lineProductIds(ctx.db, id));
    const lines: LineRow[] = [];
    for (let i = 0; i < lineIds.length; i += CHECK_PIECE) {
      await yieldToPeople(database);
      lines.push(...(await linesOf(ctx.db, id, lineIds.slice(i, i + CHECK_PIECE))));
    }
    await yieldToPeople(database);
    const missingLines = await missingOf(ctx.db, id, session.locationIds, chosen);
    const refused = [...lines, ...missingLines].filter(cannotTake).map((l) => l.productId);
    if (refused.length > 0) throw conflict(STOCK_TAKE_MESSAGES.refused(refused.length), { product_ids: refused });
    missing = missingLines.map((l) => l.productId);
  }

  const holder = randomUUID();
  await withTransaction(ctx.db, async (tx) => {
    const status = await lockStockTake(tx, id, "update");
    if (status === "approved" || status === "cancelled") throw conflict(STOCK_TAKE_MESSAGES.finished);
    if (status === "approving") {
      // Another approval's, unless its lease has expired: then this one takes it over and resumes.
      if (!(await takeApprovalLease(tx, id, holder, leaseMs))) throw conflict(STOCK_TAKE_MESSAGES.approving);
      return;
    }
    // It was approving when read, and is not now: an approval began and failed meanwhile; send it again.
    if (session.status === "approving") throw conflict(STOCK_TAKE_MESSAGES.approving);
    await markApprovalPending(tx, id, missing, chosen);
    await setStockTakeStatus(tx, id, "approving", ctx.actor.username);
    if (!(await takeApprovalLease(tx, id, holder, leaseMs))) throw conflict(STOCK_TAKE_MESSAGES.approving);
  });
  return holder;
}

/**
 * Steps 3 and 4 of approveStockTake for the lease's holder: the pending lines in batches, each
 * renewing the lease, then the session `approved` and the lease released. 409 when the lease was
 * taken over meanwhile (the other approval finishes it).
 */
export async function runApproval(
  ctx: ServiceContext,
  database: Database,
  id: number,
  holder: string,
  options: ApprovalOptions = {},
): Promise<void> {
  const leaseMs = options.leaseMs ?? APPROVAL_LEASE_MS;
  const bulk: ServiceContext = { ...ctx, db: database.bulk.db };
  try {
    const pending = await pendingProductIds(bulk.db, id);
    let size = 50;
    for (let i = 0; i < pending.length; ) {
      await yieldToPeople(database);
      const batch = pending.slice(i, i + size);
      const started = performance.now();
      await approveBatch(bulk, id, batch, { holder, leaseMs });
      i += batch.length;
      size = nextBatchSize(batch.length, performance.now() - started);
    }
    await yieldToPeople(database);
    await withTransaction(ctx.db, async (tx) => {
      const status = await lockStockTake(tx, id, "update");
      if (status === "approving" && (await pendingProductIds(tx, id)).length === 0) await setStockTakeStatus(tx, id, "approved");
      await releaseApprovalLease(tx, id, holder);
    });
  } catch (err) {
    // Another may resume it at once (a lease taken over is not this approval's to release).
    await releaseApprovalLease(ctx.db, id, holder).catch(() => {});
    throw err;
  }
}

/**
 * How many products the next batch takes: batches aim at BATCH_TARGET_MS, as an import's do,
 * between 10 and APPROVAL_BATCH_SIZE products. The embedded database's one connection is
 * everyone's; on PostgreSQL (bulk work has connections of its own) a tap waits only when its
 * product is in the batch, and batches of 250 took a second on a loaded machine.
 */
const BATCH_TARGET_MS = 50;
/** Lines read per statement by the check before an approval. */
const CHECK_PIECE = 500;
function nextBatchSize(size: number, tookMs: number): number {
  const aimed = Math.round((size * BATCH_TARGET_MS) / Math.max(tookMs, 1));
  return Math.min(APPROVAL_BATCH_SIZE, Math.max(10, Math.min(aimed, size * 2)));
}

/** One batch of an approval, in its own short transaction (approveStockTake, step 3). */
async function approveBatch(
  ctx: ServiceContext,
  id: number,
  productIds: number[],
  lease: { holder: string; leaseMs: number },
): Promise<void> {
  await withTransaction(ctx.db, async (tx, afterCommit) => {
    // The session row first (then the products, as every writer that locks both), held to the commit.
    if (!(await renewApprovalLease(tx, id, lease.holder, lease.leaseMs))) throw conflict(STOCK_TAKE_MESSAGES.approving);
    await lockProducts(tx, productIds);
    await refreshMissingBases(tx, id, productIds);
    const lines = (await linesOf(tx, id, productIds)).filter((l) => l.approval === "pending");
    const changes = lines.filter((l) => l.counted !== l.expected).map((l) => ({ productId: l.productId, delta: l.counted - l.expected }));
    const answers = new Map(
      (
        await applyQuantityChanges(tx, changes, {
          reason: stockTakeReason(id),
          userId: ctx.actor.id,
          userName: ctx.actor.username,
          ip: ctx.ip,
        })
      ).map((a) => [a.productId, a.body]),
    );
    const committed: CommittedProduct[] = [];
    const marked: Array<{ productId: number; expected: number; applied: number | null }> = [];
    for (const line of lines) {
      const difference = line.counted - line.expected;
      if (difference === 0) {
        marked.push({ productId: line.productId, expected: line.expected, applied: 0 });
        continue;
      }
      const body = answers.get(line.productId);
      if (!body || typeof body !== "object" || !("id" in body)) {
        marked.push({ productId: line.productId, expected: line.expected, applied: null });
        continue;
      }
      marked.push({ productId: line.productId, expected: line.expected, applied: difference });
      const product = body as Product;
      committed.push({
        product,
        before: { quantity: product.quantity_on_hand - difference, reorderPoint: product.reorder_point ?? null },
        extra: { quantity_change: difference },
      });
    }
    await tagAuditWithStockTake(
      tx,
      id,
      committed.map((c) => c.product.id),
    );
    await markLinesApproved(tx, id, marked);
    if (committed.length > 0) afterCommit(() => stockChanged(ctx, { type: "quantity_changed", products: committed }));
  });
}

// Shrinkage ------------------------------------------------------------------------------------

/**
 * The approved differences over time (Reports: shrinkage), from the quantity audit rows the
 * approvals tagged with their session: units missing and extra and their value at cost, per day,
 * week or month. Read as the other reports: managers and super_admin, inventory users without
 * money at cost, a token with reports:read.
 */
export async function shrinkageReport(ctx: ServiceContext, q: SalesQuery): Promise<ShrinkageAnswer> {
  requirePermission(ctx, "canViewAudit", "reports:read");
  const cost = seesCost(ctx.actor.role);
  const sums = await shrinkageByPeriod(ctx.db, { ...q, tz: ctx.config.TIMEZONE });
  const atCost = (n: number) => (cost ? n : null);
  const rows: ShrinkageRow[] = sums.map((r) => ({
    period: r.period,
    stock_takes: r.stockTakes,
    difference: r.difference,
    missing: r.missing,
    extra: r.extra,
    value_at_cost: atCost(r.valueAtCost),
    missing_at_cost: atCost(r.missingAtCost),
    extra_at_cost: atCost(r.extraAtCost),
  }));
  const total = (pick: (r: (typeof sums)[number]) => number) => sums.reduce((n, r) => n + pick(r), 0);
  return {
    timezone: ctx.config.TIMEZONE,
    from: q.from,
    to: q.to,
    by: q.by,
    rows,
    totals: {
      stock_takes: total((r) => r.stockTakes),
      difference: total((r) => r.difference),
      missing: total((r) => r.missing),
      extra: total((r) => r.extra),
      value_at_cost: atCost(total((r) => r.valueAtCost)),
      missing_at_cost: atCost(total((r) => r.missingAtCost)),
      extra_at_cost: atCost(total((r) => r.extraAtCost)),
    },
  };
}
