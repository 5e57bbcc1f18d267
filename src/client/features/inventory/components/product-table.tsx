import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type OnChangeFn,
  type RowSelectionState,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { cn } from "../../../lib/cn";
import { ProductPhotoButton } from "../../products";
import { type ProductActionHandlers, ProductActions } from "./product-actions";
import { COLUMN_CLASS, COLUMN_LABELS, productColumns } from "./table-columns";

const ROW_PX = 52;
/** The cover's box in a row: fixed, inside the row's fixed height. */
const TABLE_PHOTO_PX = 40;

export interface ProductTableProps extends ProductActionHandlers {
  products: Product[];
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  /** Selected rows by product id (labels); the select column shows to those who may manage products. */
  selection: RowSelectionState;
  onSelectionChange: OnChangeFn<RowSelectionState>;
  canManageProducts: boolean;
  busyIds: ReadonlySet<number>;
}

/** The DOM id of a product's row: focus comes back to it after a dialog it opened. */
export const rowId = (id: number) => `product-row-${id}`;

/**
 * The dense view: one row per product, sortable by each column (the library's sorted row model),
 * a header that sticks under the search bar, and only the rows in view in the DOM (window
 * scrolling), so 100,000 products stay fast. Keyboard: arrows (and Home/End) move between rows,
 * Enter edits the focused row, A adjusts its stock.
 */
export function ProductTable({
  products,
  sorting,
  onSortingChange,
  selection,
  onSelectionChange,
  canManageProducts,
  busyIds,
  ...actions
}: ProductTableProps) {
  const table = useReactTable({
    data: products,
    columns: productColumns,
    state: { sorting, rowSelection: selection, columnVisibility: { select: canManageProducts } },
    onSortingChange,
    onRowSelectionChange: onSelectionChange,
    enableRowSelection: true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (p) => String(p.id),
    enableSortingRemoval: true,
  });
  const rows = table.getRowModel().rows;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  const [active, setActive] = useState(0);
  const focusAfterScroll = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = bodyRef.current;
    if (!el) return;
    const measure = () => setMargin(el.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_PX,
    overscan: 8,
    scrollMargin: margin,
    // Rows under the sticky header and search bar are not "in view".
    scrollPaddingStart: 140,
  });
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));

  // After a keyboard move scrolled the new row into the DOM, focus it.
  useLayoutEffect(() => {
    const index = focusAfterScroll.current;
    if (index === null) return;
    const row = rows[index];
    const el = row ? document.getElementById(rowId(row.original.id)) : null;
    if (el) {
      focusAfterScroll.current = null;
      el.focus({ preventScroll: true });
    }
  });

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    setActive(next);
    focusAfterScroll.current = next;
    virtualizer.scrollToIndex(next, { align: "auto" });
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number, product: Product) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(1, Math.floor(window.innerHeight / ROW_PX) - 4);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + page, PageUp: index - page };
    if (event.key in moves) moveTo(moves[event.key] ?? index);
    else if (event.key === "Home") moveTo(0);
    else if (event.key === "End") moveTo(rows.length - 1);
    else if (event.key === "Enter" && canManageProducts) actions.onEdit(product);
    else return;
    event.preventDefault();
  };

  return (
    <table className="block w-full text-sm" aria-rowcount={rows.length + 1} data-testid="product-table" aria-label="Products">
      <thead
        className="sticky z-10 block rounded-t-xl border border-gray-200 bg-gray-100 dark:border-gray-700 dark:bg-gray-800"
        style={{ top: "calc(var(--app-header-height, 0px) + var(--inventory-bar-height, 0px))" }}
      >
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id} className="flex w-full items-stretch" aria-rowindex={1}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const canSort = header.column.getCanSort();
              const label = COLUMN_LABELS[header.id] ?? header.id;
              return (
                <th
                  key={header.id}
                  scope="col"
                  aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                  className={cn("flex items-center px-2 py-1 text-left font-semibold", COLUMN_CLASS[header.id])}
                >
                  {header.id === "select" ? (
                    <input
                      type="checkbox"
                      className="size-4"
                      aria-label="Select all products shown"
                      checked={table.getIsAllRowsSelected()}
                      ref={(el) => {
                        if (el) el.indeterminate = table.getIsSomeRowsSelected();
                      }}
                      onChange={table.getToggleAllRowsSelectedHandler()}
                    />
                  ) : canSort ? (
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      className="-mx-1 inline-flex items-center gap-1 rounded px-1 py-1 hover:bg-gray-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-gray-700"
                    >
                      {label}
                      {sorted === "asc" ? (
                        <ArrowUp aria-hidden="true" className="h-3.5 w-3.5" />
                      ) : sorted === "desc" ? (
                        <ArrowDown aria-hidden="true" className="h-3.5 w-3.5" />
                      ) : (
                        <ArrowUpDown aria-hidden="true" className="h-3.5 w-3.5 text-gray-600 dark:text-gray-300" />
                      )}
                    </button>
                  ) : (
                    <span className={header.id === "actions" ? "sr-only" : undefined}>{label}</span>
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody
        ref={bodyRef}
        className="relative block rounded-b-xl border-x border-b border-gray-200 bg-white dark:border-gray-700 dark:bg-gray-900"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <ProductRow
              key={row.id}
              product={row.original}
              index={item.index}
              top={item.start - virtualizer.options.scrollMargin}
              focusable={item.index === activeIndex}
              canManageProducts={canManageProducts}
              statusBusy={busyIds.has(row.original.id)}
              onFocusRow={setActive}
              onKeyDown={onRowKeyDown}
              cells={row.getVisibleCells().map((cell) => ({
                id: cell.column.id,
                node: cell.column.id === "actions" ? null : flexRender(cell.column.columnDef.cell, cell.getContext()),
              }))}
              {...actions}
            />
          );
        })}
      </tbody>
    </table>
  );
}

interface ProductRowProps extends ProductActionHandlers {
  product: Product;
  index: number;
  top: number;
  focusable: boolean;
  canManageProducts: boolean;
  statusBusy: boolean;
  cells: Array<{ id: string; node: ReactNode }>;
  onFocusRow: (index: number) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>, index: number, product: Product) => void;
}

function ProductRow({
  product,
  index,
  top,
  focusable,
  canManageProducts,
  statusBusy,
  cells,
  onFocusRow,
  onKeyDown,
  ...actions
}: ProductRowProps) {
  const active = product.is_active !== false;
  return (
    <tr
      id={rowId(product.id)}
      data-testid="product-row"
      data-barcode={product.barcode}
      data-product-id={product.id}
      aria-rowindex={index + 2}
      tabIndex={focusable ? 0 : -1}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onFocusRow(index);
      }}
      onKeyDown={(e) => onKeyDown(e, index, product)}
      className={cn(
        "absolute left-0 flex w-full items-center border-t border-gray-200 dark:border-gray-700",
        "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600",
        active ? "hover:bg-gray-50 dark:hover:bg-gray-800/60" : "bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200",
      )}
      style={{ height: ROW_PX, transform: `translateY(${top}px)` }}
    >
      {cells.map((cell) => (
        <td key={cell.id} className={cn("flex items-center px-2", COLUMN_CLASS[cell.id])}>
          {cell.id === "actions" ? (
            <div className="flex items-center justify-end gap-1">
              <ProductActions
                product={product}
                canManageProducts={canManageProducts}
                statusBusy={statusBusy}
                inlineFrom="lg"
                {...actions}
              />
            </div>
          ) : cell.id === "photo" ? (
            <ProductPhotoButton product={product} canManage={canManageProducts} size={TABLE_PHOTO_PX} />
          ) : (
            cell.node
          )}
        </td>
      ))}
    </tr>
  );
}
