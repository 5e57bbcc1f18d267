import { csvTextCell } from "../../../contract/csv-cells.js";
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

const money = (cents: number | null) => (cents === null ? "" : centsToAmount(cents));

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
      csvTextCell(l.barcode),
      csvTextCell(l.name),
      csvTextCell(l.location),
      csvTextCell(l.found_in.filter((f) => f !== "").join("; ")),
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
