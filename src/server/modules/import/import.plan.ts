import { gtinKey } from "../../../contract/gtin.js";
import { checkImportRow, type ImportPreviewRow, type ImportRow, type ImportRowInput } from "../../../contract/import.js";
import { type AuditedValues, auditedValues, diffValues, type FieldChanges } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";

/** One input row after validation and matching: what an import would do with it. */
export type PlannedRow =
  | { row: number; barcode: string; action: "invalid"; errors: string[] }
  | { row: number; barcode: string; action: "create"; values: ImportRow }
  | { row: number; barcode: string; action: "unchanged"; current: ProductRow }
  | { row: number; barcode: string; action: "update"; values: ImportRow; current: ProductRow; changes: FieldChanges };

export interface CheckedRows {
  /** Per input row: the normalised row, or its errors. */
  checks: Array<
    { row: number; barcode: string; ok: true; values: ImportRow } | { row: number; barcode: string; ok: false; errors: string[] }
  >;
  /** Barcodes of the valid rows, each once. */
  barcodes: string[];
}

export const duplicateMessage = (row: number, barcode: string, firstRow: number) =>
  `Row ${row}: Duplicate barcode '${barcode}' (already in row ${firstRow}; only the first is imported)`;

/**
 * Validates every row with the spec's CSV rules (`checkImportRow`). A barcode that appears again
 * later in the same file (also as another form of the same GTIN, contract/gtin.ts) is reported as
 * an error on the later row; the first occurrence is imported.
 */
export function checkRows(inputs: ImportRowInput[], firstRow = 2): CheckedRows {
  const firstRowOf = new Map<string, number>();
  const barcodes: string[] = [];
  const checks: CheckedRows["checks"] = inputs.map((input, index) => {
    // A part of a larger file numbers its rows as the file does.
    const row = index + firstRow;
    const check = checkImportRow(input, row - 2);
    const barcode = check.ok ? check.row.barcode : String(input.barcode ?? "").trim();
    if (!check.ok) return { row, barcode, ok: false, errors: check.errors };
    const key = gtinKey(barcode);
    const first = firstRowOf.get(key);
    if (first !== undefined) return { row, barcode, ok: false, errors: [duplicateMessage(row, barcode, first)] };
    firstRowOf.set(key, row);
    barcodes.push(barcode);
    return { row, barcode, ok: true, values: check.row };
  });
  return { checks, barcodes };
}

/** A row's values by field; the card details its file had no column for are left out (not compared, not written). */
export function importedValues(row: ImportRow): Partial<AuditedValues> {
  return { ...row };
}

/**
 * Matches the valid rows to the existing products and decides each row's action: by exact
 * barcode first, else by GTIN (a file whose barcodes lost their leading zeros updates the
 * products it names instead of creating them again). The stored barcode is never changed.
 */
export function planRows(checked: CheckedRows, existing: ProductRow[]): PlannedRow[] {
  const byBarcode = new Map(existing.map((p) => [p.barcode, p]));
  const byKey = new Map(existing.flatMap((p) => (p.barcodeKey === null ? [] : [[p.barcodeKey, p] as const])));
  return checked.checks.map((c): PlannedRow => {
    if (!c.ok) return { row: c.row, barcode: c.barcode, action: "invalid", errors: c.errors };
    const current = byBarcode.get(c.values.barcode) ?? byKey.get(gtinKey(c.values.barcode));
    if (!current) return { row: c.row, barcode: c.barcode, action: "create", values: c.values };
    const changes = diffValues(auditedValues(current), importedValues(c.values));
    if (changes.fields.length === 0) return { row: c.row, barcode: c.barcode, action: "unchanged", current };
    return { row: c.row, barcode: c.barcode, action: "update", values: c.values, current, changes };
  });
}

export function summarise(plan: PlannedRow[]) {
  let created = 0;
  let updated = 0;
  let skipped = 0;
  const errors: string[] = [];
  for (const p of plan) {
    if (p.action === "create") created++;
    else if (p.action === "update") updated++;
    else skipped++;
    if (p.action === "invalid") errors.push(...p.errors);
  }
  return { created, updated, skipped, errors };
}

/** The dry run's per-row answer. */
export function previewRow(p: PlannedRow): ImportPreviewRow {
  const base = { row: p.row, barcode: p.barcode };
  switch (p.action) {
    case "invalid":
      return { ...base, action: "invalid", changes: {}, error: p.errors.join("; ") };
    case "create":
      return {
        ...base,
        action: "create",
        changes: Object.fromEntries(Object.entries(importedValues(p.values)).map(([k, v]) => [k, [null, v]])),
        error: null,
      };
    case "unchanged":
      return { ...base, action: "unchanged", changes: {}, error: null };
    case "update":
      return {
        ...base,
        action: "update",
        changes: Object.fromEntries(p.changes.fields.map((f) => [f, [p.changes.oldValues[f], p.changes.newValues[f]]])),
        error: null,
      };
  }
}
