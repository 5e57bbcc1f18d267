import { Download } from "lucide-react";
import { type Ref, useId } from "react";
import type { ImportUndoResult } from "../../../../contract/imports";
import { Button } from "../../../components/ui/button";
import { downloadCsv, toCsv } from "../csv-format";

/** At most this many products left as they are are listed; all of them are in the download. */
export const NOT_REVERTED_SHOWN = 50;

const count = (n: number) => n.toLocaleString("en-US");

/** "Reverted 3 products, disabled 1". */
export function undoSummary(result: Pick<ImportUndoResult, "reverted" | "disabled">): string {
  return `Reverted ${count(result.reverted)} ${result.reverted === 1 ? "product" : "products"}, disabled ${count(result.disabled)}`;
}

const NOT_REVERTED_COLUMNS = ["product_id", "barcode", "product_name", "reason"] as const;

/** What an undo did: the counts, then each product it left as it is with its barcode and the reason. */
export function UndoOutcome({ importId, result, ref }: { importId: string; result: ImportUndoResult; ref?: Ref<HTMLDivElement> }) {
  const id = useId();
  const left = result.not_reverted;
  const more = left.length - NOT_REVERTED_SHOWN;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      data-testid="undo-result"
      className="flex flex-col gap-2 rounded-lg border border-gray-300 bg-gray-50 p-3 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-700 dark:bg-gray-800"
    >
      <p role="status" className="font-semibold">
        {undoSummary(result)}
      </p>
      {left.length > 0 ? (
        <>
          <p id={`${id}-left`} className="font-semibold">
            Not reverted ({count(left.length)})
          </p>
          <ul aria-labelledby={`${id}-left`} className="flex flex-col gap-1.5" data-testid="not-reverted">
            {left.slice(0, NOT_REVERTED_SHOWN).map((p) => (
              <li key={`${p.product_id ?? ""}|${p.barcode}|${p.reason}`} className="break-words">
                <span className="font-medium">{p.product_name}</span>{" "}
                <span className="font-mono text-xs text-gray-700 dark:text-gray-300">({p.barcode})</span>: {p.reason}
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="font-medium">... and {count(more)} more</p> : null}
          <div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                downloadCsv(
                  `import-${importId.slice(0, 8)}-not-reverted.csv`,
                  toCsv(
                    NOT_REVERTED_COLUMNS,
                    left.map((p) => ({ ...p, product_id: p.product_id === null ? "" : String(p.product_id) })),
                  ),
                )
              }
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              Download the list
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
