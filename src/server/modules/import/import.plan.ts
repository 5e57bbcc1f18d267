import { gtinKey } from "../../../contract/gtin.js";
import {
  IMPORT_FIELDS,
  type ImportField,
  type ImportPreviewRow,
  type ImportRow,
  type ImportRowInput,
  type RowCheck,
} from "../../../contract/import.js";
import { centsToAmount } from "../../../contract/money.js";
import { csvMessages } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { type AuditedValues, auditedValues } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";
import { changesSince, type LaterChange, type NewProduct, type ProductUpdate } from "./import.repo.js";
import type { BatchOutcome } from "./import-jobs.repo.js";

/*
 * The one import planner: the dry run (import.service.ts previewImport) and every batch of a run
 * (import-batch.ts writeBatch) check, match and merge rows with these functions, so a preview
 * shows what the import then does: the same actions, counts and row errors, the `updated_at`
 * merge included. They differ only in what they plan against: a run against the products it has
 * locked, a dry run against the catalogue as it is now.
 */

/** Rows as received, checked (checkImportRow), with their file row numbers. */
export interface BatchRows {
  firstRowNumber: number;
  checks: RowCheck[];
  /** The file row of the import's first valid row with a GTIN key (recordFirstRows): a later one is a duplicate. */
  firstRowOf: (key: string) => number | undefined;
  /**
   * Whether a row's product may exist (import-rows.ts `mayExist`): the others are inserted without
   * being looked up, and a product made since under one of their barcodes makes the insert fail
   * (BatchRaced: the batch is planned again, every row looked up). Absent: every row is looked up.
   */
  mayExist?: (key: string, barcode: string) => boolean;
}

/** A batch's rows sorted out before it touches the database (planBatch). */
export interface BatchPlan {
  /** Rows in the batch, valid or not. */
  size: number;
  /** The valid rows that are their barcode's first in the import. */
  rows: Array<{ row: number; values: ImportRow; key: string }>;
  /** The other rows' errors. */
  errors: BatchOutcome["errors"];
  /** The barcodes whose products the batch must look up (and, in a run, lock): none, and a run's batch is its write statement alone. */
  lookUp: string[];
}

export const duplicateMessage = (row: number, barcode: string, firstRow: number) =>
  `Row ${row}: Duplicate barcode '${barcode}' (already in row ${firstRow}; only the first is imported)`;

/**
 * Notes in `firstRows` the file row of each GTIN key's first valid row among `checks` (numbered
 * from `firstRowNumber`), unless an earlier one is noted; answers the barcodes of the rows noted.
 * A later row with the same key (also another form of the same GTIN, contract/gtin.ts) is a duplicate.
 */
export function recordFirstRows(firstRows: Map<string, number>, checks: RowCheck[], firstRowNumber: number): string[] {
  const barcodes: string[] = [];
  checks.forEach((c, i) => {
    if (!c.ok) return;
    const key = gtinKey(c.row.barcode);
    if (firstRows.has(key)) return;
    firstRows.set(key, firstRowNumber + i);
    barcodes.push(c.row.barcode);
  });
  return barcodes;
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

/** What an import does with one row of a batch. */
export type PlannedRow =
  | { row: number; action: "invalid"; errors: string[] }
  | { row: number; action: "create"; create: NewProduct; errors: [] }
  | { row: number; action: "unchanged"; errors: string[] }
  | { row: number; action: "update"; update: ProductUpdate; errors: string[] };

/**
 * Every row of the batch, in row order, planned against `products` (the ones `plan.lookUp` names:
 * locked in a run). A row matches by its exact barcode first, else by GTIN (a file whose barcodes
 * lost their leading zeros updates the products it names instead of creating them again); the
 * stored barcode is never changed. A matched row that carries the export's `updated_at` merges
 * with the changes made since (read from the audit trail): a field it leaves as exported is never
 * written over such a change, and a field it changes that someone changed since is left alone
 * and reported (docs/decisions/0001-imports-as-durable-jobs.md).
 */
export async function planRows(db: Db, plan: BatchPlan, products: ProductRow[]): Promise<PlannedRow[]> {
  const byBarcode = new Map(products.map((p) => [p.barcode, p]));
  const byKey = new Map(products.flatMap((p) => (p.barcodeKey === null ? [] : [[p.barcodeKey, p] as const])));
  const matched = plan.rows.map((r) => ({ ...r, current: byBarcode.get(r.values.barcode) ?? byKey.get(r.key) }));
  const later = groupByProduct(
    await changesSince(
      db,
      matched.flatMap((m) =>
        m.current && m.values.updated_at && m.current.updatedAt.getTime() >= Date.parse(m.values.updated_at) + 1
          ? [{ id: m.current.id, at: m.values.updated_at }]
          : [],
      ),
    ),
  );

  const planned: PlannedRow[] = [];
  for (const { row, message } of plan.errors) {
    const last = planned[planned.length - 1];
    if (last?.row === row && last.action === "invalid") last.errors.push(message);
    else planned.push({ row, action: "invalid", errors: [message] });
  }
  for (const m of matched) {
    if (!m.current) {
      planned.push({ row: m.row, action: "create", create: newProduct(m.values), errors: [] });
      continue;
    }
    const errors: string[] = [];
    const update = planUpdate(m.row, m.values, m.current, later.get(m.current.id) ?? [], errors);
    planned.push(update ? { row: m.row, action: "update", update, errors } : { row: m.row, action: "unchanged", errors });
  }
  return planned.sort((a, b) => a.row - b.row);
}

/** A batch's counts and row errors (in row order), and what it writes. */
export function outcomeOf(size: number, planned: PlannedRow[]): { outcome: BatchOutcome; creates: NewProduct[]; updates: ProductUpdate[] } {
  const creates: NewProduct[] = [];
  const updates: ProductUpdate[] = [];
  const errors: BatchOutcome["errors"] = [];
  for (const p of planned) {
    if (p.action === "create") creates.push(p.create);
    else if (p.action === "update") updates.push(p.update);
    for (const message of p.errors) errors.push({ row: p.row, message });
  }
  const outcome = { created: creates.length, updated: updates.length, skipped: size - creates.length - updates.length, errors };
  return { outcome, creates, updates };
}

/** The dry run's answer for one row; `input` is the row as sent (an invalid row's barcode is shown as it was). */
export function previewRow(p: PlannedRow, input: ImportRowInput | undefined): ImportPreviewRow {
  const base = { row: p.row, barcode: String(input?.barcode ?? "").trim(), error: p.errors.length > 0 ? p.errors.join("; ") : null };
  switch (p.action) {
    case "invalid":
    case "unchanged":
      return { ...base, action: p.action, changes: {} };
    case "create":
      return { ...base, action: "create", changes: Object.fromEntries(Object.entries(p.create).map(([k, v]) => [k, [null, v]])) };
    case "update":
      return {
        ...base,
        action: "update",
        changes: Object.fromEntries(p.update.fields.map((f) => [f, [p.update.old[f], p.update.new[f]]])),
      };
  }
}

function groupByProduct(changes: LaterChange[]): Map<number, LaterChange[]> {
  const map = new Map<number, LaterChange[]>();
  for (const c of changes) map.set(c.productId, [...(map.get(c.productId) ?? []), c]);
  return map;
}

/**
 * A new barcode: the fields that have a value. The card details that are empty or have no column
 * are left out, not sent as null: the statement reads an absent key as null, and a price list's
 * rows are mostly empty details (every null key would make the text much longer).
 */
function newProduct(values: ImportRow): NewProduct {
  const row: NewProduct = { barcode: values.barcode };
  for (const f of IMPORT_FIELDS) if (values[f] !== undefined && values[f] !== null) row[f] = values[f];
  return row;
}

const show = (field: string, value: unknown): string => {
  if (value === null || value === undefined || value === "") return "empty";
  if ((field === "price" || field === "cost") && typeof value === "number") return centsToAmount(value);
  return String(value);
};

/**
 * What a row changes on the product it matched, as the product is now. Without a merge base every
 * field the file has that differs is written. With one (`later`: the changes made since the
 * export, oldest first), a field someone changed since keeps its value: silently when the file
 * has the exported value, with a row error when the file changes it too.
 */
function planUpdate(
  row: number,
  values: ImportRow,
  current: ProductRow,
  later: LaterChange[],
  errors: string[],
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
      if (value !== exported) errors.push(csvMessages.changedSinceExport(row, field, show(field, value), show(field, now[field])));
      continue;
    }
    fields.push(field);
    oldValues[field] = now[field];
    newValues[field] = value;
  }
  if (fields.length === 0) return undefined;
  return { id: current.id, action: "UPDATE", fields, old: oldValues, new: newValues };
}
