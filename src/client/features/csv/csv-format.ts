import Papa from "papaparse";
import { safeCell } from "../../../contract/csv-cells";
import { centsToAmount } from "../../../contract/money";
import type { Product } from "../../../contract/products";
import { CSV_EXPORT_COLUMNS, CSV_TEMPLATE_COLUMNS } from "../../../contract/rules";
import { isoDay } from "../../lib/dates";
import { downloadBlob } from "../../lib/download";

export type CsvRow = Record<string, string>;

/** CSV text (CRLF, quoted where needed, every cell made safe) for `rows` under `columns`. */
export function toCsv(columns: readonly string[], rows: readonly CsvRow[]): string {
  return Papa.unparse(
    { fields: [...columns], data: rows.map((r) => columns.map((c) => safeCell(r[c] ?? ""))) },
    { newline: "\r\n", quotes: false },
  );
}

/** Money as a file's amount ("12.50"), blank when not set. */
export const amountCell = (cents: number | null) => (cents === null ? "" : centsToAmount(cents));

/** The page's origin, so exported photo URLs open from the file (none outside a browser). */
const pageOrigin = () => (typeof location === "undefined" ? "" : location.origin);

/**
 * A product as an export row (spec's CSV columns, created_at and updated_at, the card details,
 * then its photo URLs, cover first, separated by spaces; they open for a signed-in browser).
 */
export function productToRow(p: Product, origin = pageOrigin()): CsvRow {
  return {
    barcode: p.barcode,
    product_name: p.product_name,
    vendor: p.vendor,
    release_year: p.release_year === null ? "" : String(p.release_year),
    quantity_on_hand: String(p.quantity_on_hand),
    is_active: p.is_active === false ? "false" : "true",
    created_at: p.created_at,
    updated_at: p.updated_at,
    price: amountCell(p.price),
    cost: amountCell(p.cost),
    condition: p.condition ?? "",
    grader: p.grader ?? "",
    grade: p.grade ?? "",
    set_name: p.set_name ?? "",
    card_number: p.card_number ?? "",
    location: p.location ?? "",
    reorder_point: p.reorder_point === null || p.reorder_point === undefined ? "" : String(p.reorder_point),
    photos: (p.photos ?? []).map((photo) => `${origin}${photo.url}`).join(" "),
  };
}

export type ExportKind = "active" | "complete";

/** Active inventory leaves disabled products out; complete has them all. */
export function exportCsv(products: readonly Product[], kind: ExportKind): string {
  const chosen = kind === "active" ? products.filter((p) => p.is_active !== false) : products;
  const origin = pageOrigin();
  return toCsv(
    CSV_EXPORT_COLUMNS,
    chosen.map((p) => productToRow(p, origin)),
  );
}

export function exportFileName(kind: ExportKind, date: Date = new Date()): string {
  return `inventory-${kind}-${isoDay(date)}.csv`;
}

export const TEMPLATE_FILE_NAME = "inventory-template.csv";

/** The import template: the header (the spec's columns, then the optional card details) and two examples. */
export function templateCsv(): string {
  return toCsv(CSV_TEMPLATE_COLUMNS, [
    {
      barcode: "012345678905",
      product_name: "2024 Topps Series 1 Hobby Box",
      vendor: "Topps",
      release_year: "2024",
      quantity_on_hand: "10",
      is_active: "true",
      price: "129.99",
      cost: "95.00",
      condition: "Sealed",
      location: "Shelf A",
    },
    {
      barcode: "SC-000001",
      product_name: "Victor Wembanyama Prizm Silver",
      vendor: "Panini",
      release_year: "2023",
      quantity_on_hand: "1",
      is_active: "true",
      price: "450.00",
      cost: "300.00",
      grader: "PSA",
      grade: "10",
      set_name: "2023-24 Prizm",
      card_number: "136",
      location: "Case 2",
    },
  ]);
}

/** Starts a download of `text` as a UTF-8 CSV file (with a BOM, so Excel reads accents right). */
export function downloadCsv(fileName: string, text: string): void {
  downloadBlob(fileName, new Blob([`\uFEFF${text}`], { type: "text/csv;charset=utf-8" }));
}
