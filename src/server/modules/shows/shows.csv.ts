import { csvTextCell } from "../../../contract/csv-cells.js";
import { centsToAmount } from "../../../contract/money.js";
import { SHOW_CSV_COLUMNS } from "../../../contract/show-rules.js";
import type { ShowSummary } from "../../../contract/shows.js";

/**
 * A show's summary as CSV (product, barcode, sold, added, net, revenue), one line per product in name
 * order, to reconcile with the marketplace's orders: CRLF, UTF-8 with a byte-order mark so
 * spreadsheets read names with accents.
 */
export function showCsv(summary: ShowSummary): string {
  const lines = [...summary.lines].sort((a, b) => a.product_name.localeCompare(b.product_name, "en") || a.barcode.localeCompare(b.barcode));
  const rows = lines.map((l) =>
    [csvTextCell(l.product_name), csvTextCell(l.barcode), l.sold, l.added, l.net, l.revenue === null ? "" : centsToAmount(l.revenue)].join(
      ",",
    ),
  );
  return `\uFEFF${[SHOW_CSV_COLUMNS.join(","), ...rows].join("\r\n")}\r\n`;
}

/** The download's file name: show-<id>-<name>-<date>.csv, in plain letters. */
export function showCsvFileName(summary: ShowSummary): string {
  const slug = summary.show.name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase()
    .slice(0, 40);
  return `show-${summary.show.id}${slug ? `-${slug}` : ""}-${summary.show.started_at.slice(0, 10)}.csv`;
}
