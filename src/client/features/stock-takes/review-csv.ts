import Papa from "papaparse";
import type { StockTakeReview } from "../../../contract/stock-takes";

const cents = (v: number | null) => (v === null ? "" : (v / 100).toFixed(2));

/** The review as CSV, one row per line (products, missing, misplaced, unknown barcodes), built from the review's answer. */
export function reviewCsv(review: StockTakeReview): string {
  return Papa.unparse(
    {
      fields: [
        "status",
        "product_id",
        "barcode",
        "name",
        "location",
        "found_in",
        "expected",
        "counted",
        "difference",
        "value_at_cost",
        "value_at_price",
        "applied",
      ],
      data: review.lines.map((l) => [
        l.status,
        l.product_id ?? "",
        l.barcode,
        l.name ?? "",
        l.location ?? "",
        l.found_in.join("; "),
        l.expected,
        l.counted,
        l.difference,
        cents(l.value_at_cost),
        cents(l.value_at_price),
        l.applied ?? "",
      ]),
    },
    // A name beginning with = + - @ is not a formula in a spreadsheet (a negative amount stays a number).
    { escapeFormulae: /^(?:[=+@\t\r]|-(?!\d+(?:\.\d+)?$))/ },
  );
}

export const reviewCsvName = (number: number) => `stock-take-${number}.csv`;
