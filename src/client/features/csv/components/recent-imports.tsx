import { useQuery } from "@tanstack/react-query";
import { ChevronDown, RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { IMPORTS_LIMIT_DEFAULT } from "../../../../contract/imports";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText } from "../../../lib/http";
import { importsQuery } from "../api/list-imports";
import { ImportSummaryItem } from "./import-summary-item";

/** The most the server lists in one answer. */
const IMPORTS_MAX = 100;

export const NO_IMPORTS = "No imports yet";
export const IMPORTS_FAILED = "Failed to load imports";

export interface RecentImportsProps {
  /** Open at first (default closed: the list is asked for when first opened). */
  defaultOpen?: boolean;
  /** After an undo (e.g. catch up the products it changed). */
  onUndone?: () => void;
}

/** "Recent imports": a section that opens to the newest imports, each with its status, counts and Undo. */
export function RecentImports({ defaultOpen = false, onUndone }: RecentImportsProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-3 border-t border-gray-200 pt-4 dark:border-gray-700">
      <h3 id={`${id}-heading`} className="text-base font-bold">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-center justify-between gap-2 rounded-md py-1 text-left hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:text-blue-300"
        >
          Recent imports
          <ChevronDown aria-hidden="true" className={cn("h-5 w-5 shrink-0 transition-transform", open && "rotate-180")} />
        </button>
      </h3>
      <div id={`${id}-body`} hidden={!open}>
        {open ? <ImportsList onUndone={onUndone} /> : null}
      </div>
    </section>
  );
}

function ImportsList({ onUndone }: { onUndone?: () => void }) {
  const [limit, setLimit] = useState(IMPORTS_LIMIT_DEFAULT);
  const imports = useQuery(importsQuery(limit));

  if (imports.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm" aria-busy="true">
        <Spinner label="Loading imports" /> Loading imports...
      </p>
    );
  }
  const failed = imports.isError ? (
    <div className="flex flex-col items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950">
      <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
        {IMPORTS_FAILED}: {loadErrorText(imports.error)}
      </p>
      <Button variant="outline" size="sm" onClick={() => void imports.refetch()} disabled={imports.isFetching}>
        <RefreshCw aria-hidden="true" className="h-4 w-4" />
        Try Again
      </Button>
    </div>
  ) : null;
  // A failed first load shows only the error; a failed refresh keeps the list it had.
  if (!imports.data) return failed;
  if (imports.data.length === 0) {
    return (
      <>
        {failed}
        <p className="text-sm text-gray-700 dark:text-gray-300">{NO_IMPORTS}</p>
      </>
    );
  }
  const canShowMore = imports.data.length >= limit && limit < IMPORTS_MAX;
  return (
    <div className="flex flex-col gap-2">
      {failed}
      <ul aria-label="Recent imports" className="flex flex-col gap-2" data-testid="recent-imports">
        {imports.data.map((item) => (
          <ImportSummaryItem key={item.id} item={item} onUndone={onUndone} />
        ))}
      </ul>
      {canShowMore ? (
        <div>
          <Button
            variant="ghost"
            size="sm"
            disabled={imports.isPlaceholderData}
            onClick={() => setLimit((l) => Math.min(l + IMPORTS_LIMIT_DEFAULT, IMPORTS_MAX))}
          >
            {imports.isPlaceholderData ? "Loading..." : "Show more imports"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
