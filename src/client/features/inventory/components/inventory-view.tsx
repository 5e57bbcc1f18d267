import { type ComponentProps, Suspense, useCallback, useMemo, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { formatCount } from "../../../lib/counts";
import { loadErrorText } from "../../../lib/http";
import { useHeightVar } from "../../../lib/use-height-var";
import { useSearchState } from "../../../lib/use-search-state";
import { AuditDialog } from "../../audit";
import { useAuth } from "../../auth";
import { CsvDialog } from "../../csv";
import { PrintLabelsDialog } from "../../labels";
import { AddProductDialog, AdjustStockDialog, useProductList } from "../../products";
import { ScannerOverlay } from "../../scanner";
import { DEFAULT_FILTERS, filtersFromSearch, hasActiveFilters, type InventoryFilters, writeFilters } from "../filters";
import { useInventoryKeys } from "../hooks/use-inventory-keys";
import { useInventoryRows } from "../hooks/use-inventory-rows";
import { useStatusToggle } from "../hooks/use-status-toggle";
import type { RowSort } from "../row-index";
import {
  type RowSelection,
  readTableSort,
  readViewMode,
  type SortingState,
  sortFromSearch,
  storeTableSort,
  storeViewMode,
  type ViewMode,
  writeSort,
} from "../view-prefs";
import { FilterBar } from "./filter-bar";
import { type ManagementAction, ManagementActions, ViewToggle } from "./management-actions";
import { ProductGrid } from "./product-grid";
import { ProductTable } from "./product-table";
import { StockValueSummary } from "./stock-value-summary";
import { columnById } from "./table-columns";

type Modal =
  | { kind: "none" }
  | { kind: "add"; barcode?: string }
  | { kind: "adjust"; product: Product }
  | { kind: "scan" }
  | { kind: "csv" }
  | { kind: "audit"; product?: Product }
  /** The products of a flow (the one just added), or else the selection. */
  | { kind: "labels"; products?: Product[] };

const NONE: ReadonlySet<number> = new Set();

/** What the address's query string keeps: the search, the filters and the table's sort. */
interface InventoryQuery {
  filters: InventoryFilters;
  sorting: SortingState;
}
/** A query that names no sort takes the one this browser remembers. */
const readQuery = (params: URLSearchParams): InventoryQuery => ({
  filters: filtersFromSearch(params),
  sorting: sortFromSearch(params) ?? readTableSort(),
});
const writeQuery = ({ filters, sorting }: InventoryQuery): URLSearchParams => {
  const params = new URLSearchParams();
  writeFilters(filters, params);
  writeSort(sorting, params);
  return params;
};

export interface InventoryViewProps {
  /** The address's query string: the search, filters and sort (`/inventory?q=...&sort=...`). */
  search: string;
  /** Puts a new query string in the address (replacing the entry). */
  onSearchChange: (query: string) => void;
  /** Opens a product's Edit dialog (at the product's own address; the view that shows this one renders it). */
  onOpenProduct: (id: number) => void;
  /** A dialog over the view (the product's) is open: the view's shortcuts wait. */
  covered?: boolean;
}

/** 'Inventory Management': search and filters, the products as cards or a table, and the product dialogs. */
export function InventoryView({ search, onSearchChange, onOpenProduct, covered = false }: InventoryViewProps) {
  const { permissions } = useAuth();
  const canManage = permissions.canManageProducts;
  const [query, setQuery, flushQuery] = useSearchState(search, onSearchChange, readQuery, writeQuery);
  const { filters, sorting } = query;
  // Products this user disabled or enabled stay in view until the filters change.
  const [kept, setKept] = useState<ReadonlySet<number>>(NONE);
  const [modal, setModal] = useState<Modal>({ kind: "none" });
  const [mode, setModeState] = useState<ViewMode>(() => readViewMode());
  // The table sorts (by its columns' values); the cards show the catalogue's order.
  const sort = useMemo((): RowSort | null => {
    const by = sorting[0];
    const value = mode === "table" && by ? columnById.get(by.id)?.sortValue : undefined;
    return by && value ? { id: by.id, desc: by.desc, value } : null;
  }, [mode, sorting]);
  const products = useInventoryRows(filters, sort, kept);
  const { store, rows, index, options, total } = products;
  const [selection, setSelection] = useState<RowSelection>({});
  // The selected products as they are now, among those shown: a product filtered out or gone is no longer selected.
  const selected = useMemo(() => {
    const out: Product[] = [];
    if (Object.keys(selection).length === 0) return out;
    for (const p of index.products(rows)) if (selection[p.id]) out.push(p);
    return out;
  }, [index, rows, selection]);
  const barRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useHeightVar(barRef, "--inventory-bar-height");

  const setFilters = useCallback(
    (next: InventoryFilters) => {
      setQuery({ filters: next, sorting });
      setKept(NONE);
    },
    [setQuery, sorting],
  );
  const keep = useCallback((product: Product) => setKept((s) => new Set(s).add(product.id)), []);
  const { toggle: onToggleStatus, busyIds } = useStatusToggle(keep);
  const close = useCallback(() => setModal({ kind: "none" }), []);
  const clearFilters = useCallback(() => setFilters(DEFAULT_FILTERS), [setFilters]);
  // The product's own address: the inventory's entry keeps the search typed a moment ago (Back returns to it).
  const openProduct = useCallback(
    (id: number) => {
      flushQuery();
      onOpenProduct(id);
    },
    [flushQuery, onOpenProduct],
  );
  const onEdit = useCallback((product: Product) => openProduct(product.id), [openProduct]);
  const onAdjust = useCallback((product: Product) => setModal({ kind: "adjust", product }), []);
  const onHistory = useCallback((product: Product) => setModal({ kind: "audit", product }), []);
  const setMode = (next: ViewMode) => {
    storeViewMode(next);
    setModeState(next);
  };
  const setSorting = useCallback(
    (next: SortingState) => {
      storeTableSort(next);
      setQuery({ filters, sorting: next }, { now: true });
    },
    [setQuery, filters],
  );
  const onAction = (action: ManagementAction) => setModal(action === "add" ? { kind: "add" } : { kind: action });

  useInventoryKeys({
    searchRef,
    enabled: modal.kind === "none" && !covered,
    onAdjust: (id) => {
      const product = store.get(id);
      if (product && product.is_active !== false) onAdjust(product);
    },
  });
  const filtersOn = hasActiveFilters(filters);
  const handlers = { onEdit, onToggleStatus, onAdjust, onHistory: canManage ? onHistory : undefined };

  return (
    <div className="flex flex-col gap-3 sm:gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-bold sm:text-2xl">Inventory Management</h1>
        <div className="flex items-center gap-2">
          {canManage && selected.length > 0 ? (
            <Button variant="secondary" onClick={() => setModal({ kind: "labels" })}>
              Print labels ({selected.length})
            </Button>
          ) : null}
          {total > 0 || products.firstPage ? <ViewToggle mode={mode} onChange={setMode} /> : null}
          {canManage ? <ManagementActions onAction={onAction} /> : null}
        </div>
      </div>

      {products.pending && !products.firstPage ? (
        <p className="flex items-center gap-2 p-6" aria-busy="true">
          <Spinner label="Loading products" /> Loading products...
        </p>
      ) : products.status === "error" ? (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-4 font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {loadErrorText(products.error)}
        </p>
      ) : total === 0 && !products.firstPage ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-gray-400 p-10 text-center dark:border-gray-600">
          <h2 className="text-lg font-bold">No products found</h2>
          <p className="text-gray-700 dark:text-gray-300">No products in inventory.</p>
          {canManage ? (
            <Button className="mt-2" onClick={() => setModal({ kind: "add" })}>
              Add Your First Product
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          {/* The search stays at hand while scrolling through the products. */}
          <div
            ref={barRef}
            className="sticky z-20 -mx-1 bg-gray-100 px-1 pb-1 dark:bg-gray-950"
            style={{ top: "var(--app-header-height, 0px)" }}
          >
            <FilterBar filters={filters} onChange={setFilters} onClear={clearFilters} options={options} searchRef={searchRef} />
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite" data-testid="results-summary">
            {/* While only the catalogue's first page is here (its first rows shown): no count yet. */}
            {products.pending ? (
              <span className="flex items-center gap-2" aria-busy="true">
                <Spinner label="Loading products" /> Loading products...
              </span>
            ) : (
              <span>
                Showing {formatCount(rows.length)} of {formatCount(total)} products
              </span>
            )}
            {filtersOn ? (
              <Button variant="ghost" size="sm" onClick={clearFilters} className="text-blue-800 underline dark:text-blue-300">
                Clear filters
              </Button>
            ) : null}
          </div>
          {products.pending ? null : <StockValueSummary index={index} rows={rows} />}
          {rows.length === 0 && products.pending ? null : rows.length === 0 ? (
            <div className="rounded-xl border border-dashed border-gray-400 p-8 text-center dark:border-gray-600">
              <p className="font-semibold">No products match your search or filters.</p>
              <p className="text-sm text-gray-700 dark:text-gray-300">Try a different search, or clear the filters.</p>
            </div>
          ) : mode === "table" ? (
            <ProductTable
              rows={rows}
              index={index}
              sorting={sorting}
              onSortingChange={setSorting}
              selection={selection}
              onSelectionChange={setSelection}
              canManageProducts={canManage}
              busyIds={busyIds}
              {...handlers}
            />
          ) : (
            <ProductGrid rows={rows} index={index} canManageProducts={canManage} busyIds={busyIds} {...handlers} />
          )}
        </>
      )}

      <Suspense fallback={null}>
        {modal.kind === "add" ? (
          <AddProductDialog
            onClose={close}
            initialBarcode={modal.barcode}
            onPrintLabels={(product) => setModal({ kind: "labels", products: [product] })}
          />
        ) : null}
        {modal.kind === "adjust" ? <AdjustStockDialog product={modal.product} onClose={close} /> : null}
        {modal.kind === "scan" ? (
          <ScannerOverlay
            mode="add"
            onClose={close}
            onFound={(product) => {
              close();
              openProduct(product.id);
            }}
            onNotFound={(barcode) => setModal({ kind: "add", barcode })}
          />
        ) : null}
        {/* Exports from the live catalogue; after an import or an undo, a catch-up from the store's watermark. */}
        {modal.kind === "csv" ? <CatalogueCsvDialog onProductsChanged={store.resync} onClose={close} /> : null}
        {modal.kind === "audit" ? <AuditDialog onClose={close} product={modal.product} /> : null}
        {modal.kind === "labels" ? <PrintLabelsDialog products={modal.products ?? selected} onClose={close} /> : null}
      </Suspense>
    </div>
  );
}

/** The CSV dialog with the live catalogue as an array (its exports), read only while the dialog is open. */
function CatalogueCsvDialog(props: Omit<ComponentProps<typeof CsvDialog>, "products">) {
  const { products } = useProductList();
  return <CsvDialog products={products} {...props} />;
}
