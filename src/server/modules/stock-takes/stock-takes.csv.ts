import { centsToAmount } from "../../../contract/money.js";
import type { StockTakeReview } from "../../../contract/stock-takes.js";

/** The report's columns, in order. */
export const STOCK_TAKE_CSV_COLUMNS = [
  "product_id",
  "barcode",
  "name",
  "location",
  "found_in",
  "status",
  "expected",
  "counted",
  "difference",
  "value_at_cost",
  "value_at_price",
  "applied",
] as const;

/** Text starting with =, +, - or @ would run as a formula in a spreadsheet: it gets a leading quote (as the show's CSV). */
const FORMULA = /^'*[=+\-@]/;
const textCell = (value: string | null) => {
  if (value === null) return "";
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};
/** Cents as an amount; a loss keeps its sign ("-0.50": centsToAmount is for amounts of 0 or more). */
const money = (cents: number | null) => (cents === null ? "" : `${cents < 0 ? "-" : ""}${centsToAmount(Math.abs(cents))}`);

/**
 * A stock take's review as CSV, one line per review line in the review's order (counted, missing,
 * misplaced, then unknown barcodes): money in the shop's currency units, `found_in` the locations
 * it was scanned in joined with "; ", `applied` the change its approval made (empty: not applied).
 * CRLF, UTF-8 with a byte-order mark so spreadsheets read names with accents.
 */
export function stockTakeCsv(review: StockTakeReview): string {
  const rows = review.lines.map((l) =>
    [
      l.product_id ?? "",
      textCell(l.barcode),
      textCell(l.name),
      textCell(l.location),
      textCell(l.found_in.filter((f) => f !== "").join("; ")),
      l.status,
      l.expected,
      l.counted,
      l.difference,
      money(l.value_at_cost),
      money(l.value_at_price),
      l.applied ?? "",
    ].join(","),
  );
  return `\uFEFF${[STOCK_TAKE_CSV_COLUMNS.join(","), ...rows].join("\r\n")}\r\n`;
}

/** The download's file name: stock-take-<number>-<day it started>.csv. */
export const stockTakeCsvFileName = (review: StockTakeReview) =>
  `stock-take-${review.stock_take.number}-${review.stock_take.started_at.slice(0, 10)}.csv`;
