import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type ReactNode, useMemo, useState } from "react";
import { cn } from "../../../lib/cn";

export interface Column<T> {
  id: string;
  label: string;
  /** What the column sorts by (and shows, without `render`). */
  value: (row: T) => string | number | null;
  render?: (row: T) => ReactNode;
  numeric?: boolean;
}

interface DataTableProps<T> {
  /** Names the table for screen readers (and shows above it unless `hideCaption`). */
  caption: string;
  hideCaption?: boolean;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Sortable by the header buttons; starts sorted by this column. */
  sortable?: boolean;
  initialSort?: { id: string; desc: boolean };
  empty?: string;
  testId?: string;
}

/**
 * The numbers as a table: a real <table> with a caption and header cells, so screen readers
 * read it by row and column; sortable by buttons in the headers (aria-sort), in a region that
 * scrolls and takes keyboard focus when it overflows.
 */
export function DataTable<T>({ caption, hideCaption, columns, rows, rowKey, sortable, initialSort, empty, testId }: DataTableProps<T>) {
  const [sort, setSort] = useState(initialSort);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.id === sort.id);
    if (!column || !sort) return rows;
    const dir = sort.desc ? -1 : 1;
    return [...rows].sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }, [rows, columns, sort]);

  const toggle = (id: string, numeric?: boolean) => setSort((s) => (s?.id === id ? { id, desc: !s.desc } : { id, desc: Boolean(numeric) }));

  return (
    <section
      className="max-h-72 overflow-auto rounded-md border border-gray-200 dark:border-gray-700"
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className="w-full border-collapse text-sm" data-testid={testId}>
        <caption className={cn("px-2 py-1 text-left text-xs text-gray-700 dark:text-gray-300", hideCaption && "sr-only")}>
          {caption}
        </caption>
        <thead className="sticky top-0 bg-gray-50 dark:bg-gray-800">
          <tr>
            {columns.map((c) => {
              const state = sort?.id === c.id ? (sort.desc ? "descending" : "ascending") : undefined;
              return (
                <th
                  key={c.id}
                  scope="col"
                  aria-sort={sortable ? (state ?? "none") : undefined}
                  className={cn("px-2 py-1 font-semibold", c.numeric ? "text-right" : "text-left")}
                >
                  {sortable ? (
                    <button
                      type="button"
                      className={cn("inline-flex items-center gap-1 rounded hover:underline", c.numeric && "flex-row-reverse")}
                      onClick={() => toggle(c.id, c.numeric)}
                    >
                      {c.label}
                      {state === "ascending" ? (
                        <ArrowUp aria-hidden className="size-3" />
                      ) : state === "descending" ? (
                        <ArrowDown aria-hidden className="size-3" />
                      ) : (
                        <ArrowUpDown aria-hidden className="size-3 opacity-50" />
                      )}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-2 py-3 text-center text-gray-700 dark:text-gray-300">
                {empty ?? "Nothing in this range"}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)} className="border-t border-gray-100 dark:border-gray-800">
                {columns.map((c) => (
                  <td key={c.id} className={cn("px-2 py-1", c.numeric && "text-right tabular-nums")}>
                    {c.render ? c.render(row) : c.value(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
