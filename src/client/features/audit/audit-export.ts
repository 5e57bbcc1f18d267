import type { ProductAuditEntry, QuantityAuditEntry } from "../../../contract/audit";
import { AUDIT_LIMIT_MAX } from "../../../contract/audit";
import { isoDay } from "../../lib/dates";
import { type CsvRow, downloadCsv, toCsv } from "../csv";
import { listProductAudit } from "./api/list-product-audit";
import { listQuantityAudit } from "./api/list-quantity-audit";
import type { AuditFilters } from "./audit-filters";

export type AuditTab = "changes" | "quantity";

export const CHANGE_COLUMNS = [
  "timestamp",
  "action",
  "product_name",
  "barcode",
  "user_name",
  "changed_fields",
  "old_values",
  "new_values",
  "ip_address",
] as const;
export const QUANTITY_COLUMNS = [
  "timestamp",
  "product_name",
  "barcode",
  "quantity_change",
  "quantity_before",
  "quantity_after",
  "transaction_type",
  "notes",
  "user_name",
] as const;

const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

export function changeRow(e: ProductAuditEntry): CsvRow {
  return {
    timestamp: e.timestamp,
    action: e.action,
    product_name: e.product_name,
    barcode: e.barcode,
    user_name: e.user_name,
    changed_fields: e.changed_fields.join(" "),
    old_values: json(e.old_values),
    new_values: json(e.new_values),
    ip_address: e.ip_address ?? "",
  };
}

export function quantityRow(e: QuantityAuditEntry): CsvRow {
  return {
    timestamp: e.timestamp,
    product_name: e.product_name,
    barcode: e.barcode,
    quantity_change: String(e.quantity_change),
    quantity_before: String(e.quantity_before),
    quantity_after: String(e.quantity_after),
    transaction_type: e.transaction_type,
    notes: e.notes ?? "",
    user_name: e.user_name,
  };
}

/**
 * Every entry the filters select, newest first, page by page (1,000 per call, each well within
 * the 10 s every call gets), then one CSV file. `onProgress` hears the count so far.
 */
export async function exportAudit(
  tab: AuditTab,
  filters: AuditFilters,
  productId: number | undefined,
  onProgress: (count: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const rows: CsvRow[] = [];
  for (let offset = 0; ; offset += AUDIT_LIMIT_MAX) {
    const page = { ...filters, limit: AUDIT_LIMIT_MAX, offset };
    const got =
      tab === "changes"
        ? (await listProductAudit(page, productId, signal)).map(changeRow)
        : (await listQuantityAudit(page, productId, signal)).map(quantityRow);
    rows.push(...got);
    onProgress(rows.length);
    if (got.length < AUDIT_LIMIT_MAX) break;
  }
  const columns = tab === "changes" ? CHANGE_COLUMNS : QUANTITY_COLUMNS;
  const scope = productId === undefined ? "" : `-product-${productId}`;
  downloadCsv(`audit-${tab}${scope}-${isoDay(new Date())}.csv`, toCsv(columns, rows));
  return rows.length;
}
