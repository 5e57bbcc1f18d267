import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type KeyboardEvent, memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { cn } from "../../../lib/cn";
import { MARKET_QUOTES_PAGE, type MarketCell, useMarketQuotes } from "../../../lib/market-quotes";
import { atLeast, useScreenLevel } from "../../../lib/use-screen";
import { useProduct } from "../../products";
import { todayIn } from "../../reports";
import { useMoney, useSettings } from "../../settings";
import { useWindowRows } from "../hooks/use-window-rows";
import type { RowIndex } from "../row-index";
import type { RowSelection, SortingState } from "../view-prefs";
import { type ProductActionHandlers, ProductActions } from "./product-actions";
import { type CellContext, type ProductColumn, productColumns, SHOWN_FROM } from "./table-columns";

const ROW_PX = 52;

export interface ProductTableProps extends ProductActionHandlers {
  /** The rows shown (catalogue slots, in order) and the index they come from. */
  rows: Int32Array;
  index: RowIndex;
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
  /** Selected rows by product id (labels); the select column shows to those who may manage products. */
  selection: RowSelection;
  onSelectionChange: (next: RowSelection) => void;
  canManageProducts: boolean;
  busyIds: ReadonlySet<number>;
}

/** The DOM id of a product's row: focus comes back to it after a dialog it opened. */
export const rowId = (id: number) => `product-row-${id}`;

/** The next sort after a click on a column's header: its first direction, the other one, then none. */
export function nextSorting(sorting: SortingState, column: ProductColumn): SortingState {
  const first = column.sortDescFirst ?? false;
  const now = sorting[0]?.id === column.id ? sorting[0] : null;
  if (!now) return [{ id: column.id, desc: first }];
  if (now.desc === first) return [{ id: column.id, desc: !first }];
  return [];
}

/**
 * The dense view: one row per product, sortable by each column, a header that sticks under the
 * search bar, and only the rows in view in the DOM (window scrolling), so 100,000 products stay
 * fast. The rows come from the inventory's RowIndex (sorted and filtered there); each row reads
 * its product from the store, so a live change re-renders that one row. Keyboard: arrows (and
 * Home/End) move between rows, Enter edits the focused row, A adjusts its stock.
 */
export const ProductTable = memo(function ProductTable({
  rows,
  index,
  sorting,
  onSortingChange,
  selection,
  onSelectionChange,
  canManageProducts,
  busyIds,
  onEdit,
  onToggleStatus,
  onAdjust,
  onHistory,
}: ProductTableProps) {
  // Only the columns this width shows are rendered (a keystroke renders every row in view anew).
  const screen = useScreenLevel();
  const columns = useMemo(
    () => productColumns.filter((c) => (canManageProducts || !c.managersOnly) && atLeast(screen, c.from)),
    [canManageProducts, screen],
  );
  const wide = atLeast(screen, "lg");
  const money = useMoney();
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  const [active, setActive] = useState(0);
  const focusAfterScroll = useRef<number | null>(null);

  // Measured when the observer reports, after a layout: the first comes right after the first
  // layout, so the commit that mounts the table forces none (with margin 0 meanwhile, a few more
  // rows than the view shows are rendered).
  useLayoutEffect(() => {
    const el = bodyRef.current;
    if (!el) return;
    const measure = () => setMargin(el.getBoundingClientRect().top + window.scrollY);
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Rows under the sticky header and search bar are not "in view".
  const view = useWindowRows(rows.length, ROW_PX, margin, 2, 140);
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));

  // The market prices of the rows in view, asked for a page of rows at a time (cached per page).
  const firstPage = Math.floor(view.first / MARKET_QUOTES_PAGE);
  const lastPage = Math.floor(Math.max(view.first, view.last) / MARKET_QUOTES_PAGE);
  const marketPages = useMemo(() => {
    const pages: number[][] = [];
    for (let page = firstPage; page <= lastPage; page++) {
      const ids: number[] = [];
      for (let at = page * MARKET_QUOTES_PAGE; at < Math.min(rows.length, (page + 1) * MARKET_QUOTES_PAGE); at++) {
        const product = index.productAt(rows, at);
        if (product) ids.push(product.id);
      }
      if (ids.length > 0) pages.push(ids);
    }
    return pages;
  }, [rows, index, firstPage, lastPage]);
  const marketOf = useMarketQuotes(marketPages);
  const { timezone } = useSettings();
  // The shop's day for the prices' age: read again when answers come, not in every render (a scroll renders each frame).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `marketOf` changes with each answer, when today is read again
  const today = useMemo(() => todayIn(timezone), [timezone, marketOf]);
  const marketUnderPrice = !atLeast(screen, "md");

  // After a keyboard move scrolled the new row into the DOM, focus it.
  useLayoutEffect(() => {
    const at = focusAfterScroll.current;
    if (at === null) return;
    const product = index.productAt(rows, at);
    const el = product ? document.getElementById(rowId(product.id)) : null;
    if (el) {
      focusAfterScroll.current = null;
      el.focus({ preventScroll: true });
    }
  });

  // The latest rows and handlers for the rows' key handler, which stays the same function (rows are memoised).
  const latest = useRef({ rows, canManageProducts, onEdit });
  latest.current = { rows, canManageProducts, onEdit };
  const onRowKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTableRowElement>, at: number, product: Product) => {
      if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
      const { rows: shown, canManageProducts: canEdit, onEdit: edit } = latest.current;
      const moveTo = (to: number) => {
        const next = Math.max(0, Math.min(shown.length - 1, to));
        setActive(next);
        focusAfterScroll.current = next;
        view.scrollToIndex(next);
      };
      const page = Math.max(1, Math.floor(window.innerHeight / ROW_PX) - 4);
      const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, PageDown: at + page, PageUp: at - page };
      if (event.key in moves) moveTo(moves[event.key] ?? at);
      else if (event.key === "Home") moveTo(0);
      else if (event.key === "End") moveTo(shown.length - 1);
      else if (event.key === "Enter" && canEdit) edit(product);
      else return;
      event.preventDefault();
    },
    [view.scrollToIndex],
  );

  const onToggleSelected = useCallback(
    (id: number) => {
      const next = { ...selection };
      if (next[id]) delete next[id];
      else next[id] = true;
      onSelectionChange(next);
    },
    [selection, onSelectionChange],
  );
  const selectedShown = useMemo(() => {
    let n = 0;
    if (Object.keys(selection).length === 0) return 0;
    for (const p of index.products(rows)) if (selection[p.id]) n++;
    return n;
  }, [index, rows, selection]);
  const allSelected = rows.length > 0 && selectedShown === rows.length;
  const toggleAll = () => {
    if (allSelected) onSelectionChange({});
    else {
      const next: RowSelection = {};
      for (const p of index.products(rows)) next[p.id] = true;
      onSelectionChange(next);
    }
  };
  const sorted = sorting[0];

  return (
    <table className="block w-full text-sm" aria-rowcount={rows.length + 1} data-testid="product-table" aria-label="Products">
      <thead
        className="sticky z-10 block rounded-t-xl border border-gray-200 bg-gray-100 dark:border-gray-700 dark:bg-gray-800"
        style={{ top: "calc(var(--app-header-height, 0px) + var(--inventory-bar-height, 0px))" }}
      >
        <tr className="flex w-full items-stretch" aria-rowindex={1}>
          {columns.map((column) => {
            const dir = sorted?.id === column.id ? (sorted.desc ? "desc" : "asc") : null;
            return (
              <th
                key={column.id}
                scope="col"
                aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : undefined}
                className={cn(
                  "flex items-center px-2 py-1 text-left font-semibold",
                  column.from && SHOWN_FROM[column.from],
                  column.className,
                )}
              >
                {column.id === "select" ? (
                  <input
                    type="checkbox"
                    className="size-4"
                    aria-label="Select all products shown"
                    checked={allSelected}
                    ref={(el) => {
                      if (el) el.indeterminate = selectedShown > 0 && !allSelected;
                    }}
                    onChange={toggleAll}
                  />
                ) : column.sortValue ? (
                  <button
                    type="button"
                    onClick={() => onSortingChange(nextSorting(sorting, column))}
                    className="-mx-1 inline-flex items-center gap-1 rounded px-1 py-1 hover:bg-gray-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-gray-700"
                  >
                    {column.label}
                    {dir === "asc" ? (
                      <ArrowUp aria-hidden="true" className="h-3.5 w-3.5" />
                    ) : dir === "desc" ? (
                      <ArrowDown aria-hidden="true" className="h-3.5 w-3.5" />
                    ) : (
                      <ArrowUpDown aria-hidden="true" className="h-3.5 w-3.5 text-gray-600 dark:text-gray-300" />
                    )}
                  </button>
                ) : (
                  <span className={column.hiddenLabel ? "sr-only" : undefined}>{column.label}</span>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody
        ref={bodyRef}
        className="relative block rounded-b-xl border-x border-b border-gray-200 bg-white dark:border-gray-700 dark:bg-gray-900"
        style={{ height: view.totalSize }}
      >
        {Array.from({ length: Math.max(0, view.last - view.first + 1) }, (_, k) => {
          const at = view.first + k;
          const product = index.productAt(rows, at);
          if (!product) return null;
          // Keyed by position: a keystroke gives the rows in view other products, and a row that
          // stays updates its text instead of being built again. What holds state for its product
          // (the stepper's held press, the photo viewer, the actions menu) is keyed by product.
          return (
            <ProductRow
              key={at}
              id={product.id}
              index={at}
              top={at * ROW_PX}
              focusable={at === activeIndex}
              columns={columns}
              wide={wide}
              money={money}
              market={marketOf(product.id)}
              today={today}
              marketUnderPrice={marketUnderPrice}
              canManageProducts={canManageProducts}
              selected={selection[product.id] === true}
              onToggleSelected={onToggleSelected}
              statusBusy={busyIds.has(product.id)}
              onFocusRow={setActive}
              onKeyDown={onRowKeyDown}
              onEdit={onEdit}
              onToggleStatus={onToggleStatus}
              onAdjust={onAdjust}
              onHistory={onHistory}
            />
          );
        })}
      </tbody>
    </table>
  );
});

interface ProductRowProps extends ProductActionHandlers {
  id: number;
  index: number;
  top: number;
  focusable: boolean;
  columns: ProductColumn[];
  /** Actions as buttons (lg and up), else one menu. */
  wide: boolean;
  money: (cents: number | null) => string;
  market: MarketCell;
  today: string;
  marketUnderPrice: boolean;
  canManageProducts: boolean;
  selected: boolean;
  onToggleSelected: (id: number) => void;
  statusBusy: boolean;
  onFocusRow: (index: number) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>, index: number, product: Product) => void;
}

/**
 * One product's row: reads the product from the store, so its changes re-render this row alone.
 * The row at a position shows the product there now (see the key above).
 */
const ProductRow = memo(function ProductRow({
  id,
  index,
  top,
  focusable,
  columns,
  wide,
  money,
  market,
  today,
  marketUnderPrice,
  canManageProducts,
  selected,
  onToggleSelected,
  statusBusy,
  onFocusRow,
  onKeyDown,
  ...actions
}: ProductRowProps) {
  const product = useProduct(id);
  if (!product) return null;
  const active = product.is_active !== false;
  const ctx: CellContext = {
    canManageProducts,
    money,
    market,
    today,
    marketUnderPrice,
    selected,
    onToggleSelected,
    actions: (
      <div className="flex items-center justify-end gap-1">
        <ProductActions
          key={wide ? undefined : product.id}
          product={product}
          canManageProducts={canManageProducts}
          statusBusy={statusBusy}
          inlineFrom="lg"
          only={wide ? "inline" : "menu"}
          compact
          {...actions}
        />
      </div>
    ),
  };
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
      {columns.map((column) => (
        <td key={column.id} className={cn("flex items-center px-2", column.from && SHOWN_FROM[column.from], column.className)}>
          {column.cell(product, ctx)}
        </td>
      ))}
    </tr>
  );
});
