import { useId } from "react";
import type { ImportSummary } from "../../../../contract/imports";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";
import { cn } from "../../../lib/cn";
import { canUndo } from "../api/list-imports";
import { UndoImport } from "./undo-import";

const count = (n: number) => n.toLocaleString("en-US");

/** A moment in the viewer's local time, e.g. "Nov 22, 2026, 3:04 PM". */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
}

/** "Staging", "In progress: 1,200 of 5,000 rows", "Done", "Failed" or "Undone", with its badge colour. */
export function importStatus(i: ImportSummary): { text: string; variant: BadgeVariant } {
  if (i.undone_at !== null) return { text: "Undone", variant: "warning" };
  switch (i.status) {
    case "staging":
      return { text: "Staging", variant: "neutral" };
    case "committing":
      return { text: `In progress: ${count(i.processed)} of ${count(i.rows)} rows`, variant: "info" };
    case "done":
      return { text: "Done", variant: "success" };
    case "failed":
      return { text: "Failed", variant: "danger" };
  }
}

export interface ImportSummaryItemProps {
  item: ImportSummary;
  onUndone?: () => void;
}

/** One import of the list: when and who, its status, its counts, and Undo while it can be undone. */
export function ImportSummaryItem({ item, onUndone }: ImportSummaryItemProps) {
  const id = useId();
  const when = localTime(item.created_at);
  const status = importStatus(item);
  const counts = [
    ["Created", item.created],
    ["Updated", item.updated],
    ["Skipped", item.skipped],
    ["Errors", item.error_count],
  ] as const;
  return (
    <li
      aria-labelledby={`${id}-title`}
      data-testid="import-row"
      data-import-id={item.id}
      className="flex min-w-0 flex-col gap-2 rounded-lg border border-gray-200 p-3 dark:border-gray-700"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p id={`${id}-title`} className="min-w-0 break-words text-sm">
          <time dateTime={item.created_at} className="font-semibold">
            {when}
          </time>{" "}
          by <span className="font-semibold">{item.user_name}</span>
        </p>
        <Badge variant={status.variant} data-testid="import-status">
          {status.text}
        </Badge>
      </div>
      <dl className="grid grid-cols-4 gap-1.5 text-center">
        {counts.map(([label, value]) => (
          <div key={label} className="min-w-0 rounded-md bg-gray-100 px-1 py-1.5 dark:bg-gray-800">
            <dt className="text-xs">{label}</dt>
            <dd
              className={cn("text-base font-bold", label === "Errors" && value > 0 && "text-red-800 dark:text-red-300")}
              data-testid={`import-row-${label.toLowerCase()}`}
            >
              {count(value)}
            </dd>
          </div>
        ))}
      </dl>
      {item.undone_at !== null ? (
        <p className="text-xs text-gray-700 dark:text-gray-300">
          Undone{item.undone_by ? ` by ${item.undone_by}` : ""} on <time dateTime={item.undone_at}>{localTime(item.undone_at)}</time>
        </p>
      ) : null}
      <UndoImport
        importId={item.id}
        available={canUndo(item)}
        label={`Undo import from ${when} by ${item.user_name}`}
        onUndone={onUndone}
      />
    </li>
  );
}
