import type { SQL } from "drizzle-orm";
import { gtinKey } from "../../../contract/gtin.js";
import { IMPORT_FIELDS, type ImportField, type ImportRow, type RowCheck } from "../../../contract/import.js";
import { centsToAmount } from "../../../contract/money.js";
import { csvMessages } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { type AuditedValues, auditedValues } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";
import { duplicateMessage } from "./import.plan.js";
import {
  changesSince,
  findProductsByBarcodes,
  type Importer,
  type LaterChange,
  type NewProduct,
  type ProductUpdate,
  writeProducts,
} from "./import.repo.js";
import type { BatchOutcome } from "./import-jobs.repo.js";

/** Thrown when another transaction created one of the batch's new barcodes first: the batch is planned again. */
export class BatchRaced extends Error {
  constructor() {
    super("A new barcode of this batch was created meanwhile");
  }
}

/** Rows as received, checked (checkImportRow, import-rows.ts), with their file row numbers. */
export interface BatchRows {
  firstRowNumber: number;
  checks: RowCheck[];
  /** The file row of the import's first valid row with a GTIN key (import-rows.ts): a later one is a duplicate. */
  firstRowOf: (key: string) => number | undefined;
  /**
   * Whether a row's product may exist (import-rows.ts `mayExist`): the others are inserted without
   * being looked up, and a product made since under one of their barcodes makes the insert fail
   * (BatchRaced: the batch is planned again, every row looked up). Absent: every row is looked up.
   */
  mayExist?: (key: string, barcode: string) => boolean;
}

export interface BatchWritten extends BatchOutcome {
  /** The revision the batch's changes got; null when it wrote nothing. */
  revision: number | null;
  /** Whether the statement `record` added moved the import's cursor (false: the caller rolls back). */
  moved: boolean;
}

const show = (field: string, value: unknown): string => {
  if (value === null || value === undefined || value === "") return "empty";
  if ((field === "price" || field === "cost") && typeof value === "number") return centsToAmount(value);
  return String(value);
};

/** A batch's rows sorted out before it touches the database (planBatch). */
export interface BatchPlan {
  /** Rows in the batch, valid or not. */
  size: number;
  /** The valid rows that are their barcode's first in the import. */
  rows: Array<{ row: number; values: ImportRow; key: string }>;
  /** The other rows' errors. */
  errors: BatchOutcome["errors"];
  /** The barcodes whose products the batch must look up and lock: none, and the batch is its write statement alone. */
  lookUp: string[];
}

/**
 * Validates a batch's rows and finds each barcode's first row in the whole import (a later one is
 * a duplicate); the rows that may match a product (`mayExist`) are to be looked up.
 */
export function planBatch(batch: BatchRows): BatchPlan {
  const errors: BatchOutcome["errors"] = [];
  const rows: BatchPlan["rows"] = [];
  batch.checks.forEach((check, i) => {
    const row = batch.firstRowNumber + i;
    if (!check.ok) {
      for (const message of check.errors) errors.push({ row, message });
      return;
    }
    const key = gtinKey(check.row.barcode);
    const first = batch.firstRowOf(key) ?? row;
    if (first !== row) {
      errors.push({ row, message: duplicateMessage(row, check.row.barcode, first) });
      return;
    }
    rows.push({ row, values: check.row, key });
  });
  const mayExist = batch.mayExist;
  const lookUp = rows.flatMap((r) => (!mayExist || mayExist(r.key, r.values.barcode) ? [r.values.barcode] : []));
  return { size: batch.checks.length, rows, errors, lookUp };
}

/**
 * One batch of an import (planBatch), in the caller's transaction, or on its own when the plan
 * looks nothing up (then it is one statement): locks the products the rows name (id order), plans
 * every row against them as they are now, and writes the creations and changes with their audit
 * rows. A row that carries the export's `updated_at` merges: a field it leaves as exported is
 * never written over a change made since, and a field it changes that someone changed since is
 * left alone and reported (docs/decisions/0001-imports-as-durable-jobs.md). `record`: what the
 * same write statement also does with the batch's outcome (moves the import's cursor:
 * `recordBatch`); nothing is written unless the cursor moved. So a batch is a lock, one write and
 * its commit.
 */
export async function writeBatch(tx: Db, who: Importer, plan: BatchPlan, record: (outcome: BatchOutcome) => SQL): Promise<BatchWritten> {
  const outcome: BatchOutcome = { created: 0, updated: 0, skipped: 0, errors: [...plan.errors] };
  const locked = await findProductsByBarcodes(tx, plan.lookUp, true);
  const byBarcode = new Map(locked.map((p) => [p.barcode, p]));
  const byKey = new Map(locked.flatMap((p) => (p.barcodeKey === null ? [] : [[p.barcodeKey, p] as const])));
  const matched = plan.rows.map((r) => ({ ...r, current: byBarcode.get(r.values.barcode) ?? byKey.get(r.key) }));
  const later = groupByProduct(
    await changesSince(
      tx,
      matched.flatMap((m) =>
        m.current && m.values.updated_at && m.current.updatedAt.getTime() >= Date.parse(m.values.updated_at) + 1
          ? [{ id: m.current.id, at: m.values.updated_at }]
          : [],
      ),
    ),
  );

  const creates: NewProduct[] = [];
  const updates: ProductUpdate[] = [];
  for (const m of matched) {
    if (!m.current) {
      creates.push(newProduct(m.values));
      continue;
    }
    const change = planUpdate(m.row, m.values, m.current, later.get(m.current.id) ?? [], outcome.errors);
    if (change) updates.push(change);
  }

  // The counts are known before writing: every product updated is locked, every creation is
  // inserted or the statement fails (checked below), so the cursor moves with them in the same statement.
  outcome.created = creates.length;
  outcome.updated = updates.length;
  outcome.skipped = plan.size - outcome.created - outcome.updated;
  outcome.errors.sort((a, b) => a.row - b.row);
  // Every product the batch writes is locked (or new): its revision is above every change committed before.
  const written = await writeProducts(tx, who, creates, updates, record(outcome));
  if (written === "raced") throw new BatchRaced();
  // Not moved: another runner has this batch, and the statement wrote nothing.
  if (!written.moved) return { ...outcome, revision: null, moved: false };
  if (written.created !== creates.length || written.updated !== updates.length) throw new BatchRaced();
  return { ...outcome, revision: written.revision, moved: true };
}

function groupByProduct(changes: LaterChange[]): Map<number, LaterChange[]> {
  const map = new Map<number, LaterChange[]>();
  for (const c of changes) map.set(c.productId, [...(map.get(c.productId) ?? []), c]);
  return map;
}

/**
 * A new barcode: the fields that have a value. The card details that are empty or have no column
 * are left out, not sent as null: the statement reads an absent key as null, and a price list's
 * rows are mostly empty details (with every null key, the text was twice as long and writing
 * 50,000 new products took 20-25% longer).
 */
function newProduct(values: ImportRow): NewProduct {
  const row: NewProduct = { barcode: values.barcode };
  for (const f of IMPORT_FIELDS) if (values[f] !== undefined && values[f] !== null) row[f] = values[f];
  return row;
}

/**
 * What a row changes on the product it matched, as the product is now (locked). Without a merge
 * base every field the file has that differs is written. With one (`later`: the changes made since
 * the export, oldest first), a field someone changed since keeps its value: silently when the
 * file has the exported value, with a row error when the file changes it too.
 */
function planUpdate(
  row: number,
  values: ImportRow,
  current: ProductRow,
  later: LaterChange[],
  errors: BatchOutcome["errors"],
): ProductUpdate | undefined {
  const now = auditedValues(current);
  const fields: ImportField[] = [];
  const oldValues: Partial<AuditedValues> = {};
  const newValues: Partial<AuditedValues> = {};
  for (const field of IMPORT_FIELDS) {
    const value = values[field];
    if (value === undefined || value === now[field]) continue;
    const since = later.find((c) => c.fields.includes(field));
    if (since) {
      const exported = since.oldValues?.[field] ?? null;
      if (value !== exported)
        errors.push({ row, message: csvMessages.changedSinceExport(row, field, show(field, value), show(field, now[field])) });
      continue;
    }
    fields.push(field);
    oldValues[field] = now[field];
    newValues[field] = value;
  }
  if (fields.length === 0) return undefined;
  return { id: current.id, action: "UPDATE", fields, old: oldValues, new: newValues };
}
