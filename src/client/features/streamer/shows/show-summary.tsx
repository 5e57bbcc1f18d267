import { Download } from "lucide-react";
import type { ShowLine, ShowSummary, ShowTotals } from "../../../../contract/shows";
import { cn } from "../../../lib/cn";
import { ProductCover } from "../../products";
import { useMoney } from "../../settings";
import { showCsvUrl } from "./shows-api";

/** A product's cover beside its line in the tally (from the product store: the products the show tapped). */
const TALLY_PHOTO_PX = 36;

const time = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

export function ShowTimes({ summary }: { summary: ShowSummary }) {
  const { show } = summary;
  return (
    <span className="block text-sm text-gray-700 dark:text-gray-300">
      Started {time(show.started_at)} by {show.started_by_name}
      {show.ended_at ? ` · ended ${time(show.ended_at)}${show.ended_by_name ? ` by ${show.ended_by_name}` : ""}` : ""}
    </span>
  );
}

export function ShowTotalsLine({ totals, className }: { totals: ShowTotals; className?: string }) {
  const money = useMoney();
  return (
    <p className={cn("flex flex-wrap gap-x-4 gap-y-1 text-sm font-semibold", className)} data-testid="show-totals">
      <span>Sold {totals.sold}</span>
      <span>Added {totals.added}</span>
      <span>Net {totals.net > 0 ? `+${totals.net}` : totals.net}</span>
      {totals.revenue === null ? null : <span>Revenue {money(totals.revenue)}</span>}
    </p>
  );
}

/** The tally: one row per product, newest first; `onUndo` adds each line's Undo. */
export function ShowLines({
  lines,
  onUndo,
  busy,
  label,
}: {
  lines: ShowLine[];
  onUndo?: (line: ShowLine) => void;
  busy?: boolean;
  label: string;
}) {
  if (lines.length === 0) return <p className="text-sm text-gray-700 dark:text-gray-300">No taps yet.</p>;
  return (
    <table className="w-full border-collapse text-sm" aria-label={label}>
      <thead>
        <tr className="border-b border-gray-300 text-left text-xs uppercase tracking-wide text-gray-700 dark:border-gray-700 dark:text-gray-300">
          <th scope="col" className="py-1.5 pr-2 font-semibold">
            Product
          </th>
          <th scope="col" className="px-1 py-1.5 text-right font-semibold">
            Sold
          </th>
          <th scope="col" className="px-1 py-1.5 text-right font-semibold">
            Added
          </th>
          <th scope="col" className="px-1 py-1.5 text-right font-semibold">
            Net
          </th>
          {onUndo ? (
            <th scope="col" className="py-1.5 pl-2">
              <span className="sr-only">Undo</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr
            key={line.product_id ?? line.barcode}
            className="border-b border-gray-200 align-top dark:border-gray-800"
            data-testid="show-line"
          >
            <th scope="row" className="py-2 pr-2 text-left font-normal">
              <span className="flex items-start gap-2">
                <ProductCover productId={line.product_id} size={TALLY_PHOTO_PX} />
                <span className="min-w-0">
                  <span className="block font-semibold leading-snug break-words">{line.product_name}</span>
                  <span className="block font-mono text-xs text-gray-700 dark:text-gray-300">{line.barcode}</span>
                </span>
              </span>
            </th>
            <td className="px-1 py-2 text-right tabular-nums" data-testid="show-line-sold">
              {line.sold}
            </td>
            <td className="px-1 py-2 text-right tabular-nums" data-testid="show-line-added">
              {line.added}
            </td>
            <td className="px-1 py-2 text-right tabular-nums">{line.net > 0 ? `+${line.net}` : line.net}</td>
            {onUndo ? (
              <td className="py-1.5 pl-2 text-right">
                {line.undo_change === null ? null : (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => onUndo(line)}
                    aria-label={`Undo the last ${line.undo_change > 0 ? "sale" : "add"} of ${line.product_name}`}
                    className="h-8 rounded-lg border border-gray-400 px-2.5 text-sm font-medium hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-60 dark:border-gray-500 dark:hover:bg-gray-800"
                  >
                    Undo
                  </button>
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DownloadCsv({ summary }: { summary: ShowSummary }) {
  return (
    <a
      href={showCsvUrl(summary.show.id)}
      download
      className="inline-flex h-10 items-center gap-2 rounded-lg bg-blue-700 px-4 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:bg-blue-600 dark:hover:bg-blue-700"
    >
      <Download aria-hidden="true" className="h-4 w-4" />
      Download CSV
    </a>
  );
}
