import {
  checkImportRow,
  IMPORT_FIELDS,
  type ImportField,
  type ImportPreviewRow,
  type ImportRow,
  type ImportRowInput,
} from "../../../contract/import.js";
import { type AuditedValues, auditedValues, diffValues, type FieldChanges } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";
import type { StagedRow } from "./import.repo.js";

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
 * later in the same file is reported as an error on the later row; the first occurrence is imported.
 */
export function checkRows(inputs: ImportRowInput[]): CheckedRows {
  const firstRowOf = new Map<string, number>();
  const checks: CheckedRows["checks"] = inputs.map((input, index) => {
    const row = index + 2;
    const check = checkImportRow(input, index);
    const barcode = check.ok ? check.row.barcode : String(input.barcode ?? "").trim();
    if (!check.ok) return { row, barcode, ok: false, errors: check.errors };
    const first = firstRowOf.get(barcode);
    if (first !== undefined) return { row, barcode, ok: false, errors: [duplicateMessage(row, barcode, first)] };
    firstRowOf.set(barcode, row);
    return { row, barcode, ok: true, values: check.row };
  });
  return { checks, barcodes: [...firstRowOf.keys()] };
}

export function importedValues(row: ImportRow): AuditedValues {
  return { ...row };
}

/** Matches the valid rows to the existing products by barcode and decides each row's action. */
export function planRows(checked: CheckedRows, existing: ProductRow[]): PlannedRow[] {
  const byBarcode = new Map(existing.map((p) => [p.barcode, p]));
  return checked.checks.map((c): PlannedRow => {
    if (!c.ok) return { row: c.row, barcode: c.barcode, action: "invalid", errors: c.errors };
    const current = byBarcode.get(c.values.barcode);
    if (!current) return { row: c.row, barcode: c.barcode, action: "create", values: c.values };
    const changes = diffValues(auditedValues(current), importedValues(c.values));
    if (changes.fields.length === 0) return { row: c.row, barcode: c.barcode, action: "unchanged", current };
    return { row: c.row, barcode: c.barcode, action: "update", values: c.values, current, changes };
  });
}

/** The rows an import writes: new barcodes with every field, planned updates with the fields that differ. */
export function stagedRows(plan: PlannedRow[]): StagedRow[] {
  return plan.flatMap((p): StagedRow[] => {
    if (p.action === "create") return [{ ...p.values, action: "create", fields: [...IMPORT_FIELDS] }];
    if (p.action === "update") return [{ ...p.values, action: "update", fields: p.changes.fields as ImportField[] }];
    return [];
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
