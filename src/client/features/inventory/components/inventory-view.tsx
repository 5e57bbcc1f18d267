import { ClipboardList, FileSpreadsheet, PackagePlus, ScanLine } from "lucide-react";
import { Suspense, useCallback, useState } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText } from "../../../lib/http";
import { AuditDialog } from "../../audit";
import { useAuth } from "../../auth";
import { CsvDialog } from "../../csv";
import { notify } from "../../notifications";
import { AddProductDialog, EditProductDialog, productNameOf, useProductList, useSetProductStatus } from "../../products";
import { ScannerOverlay } from "../../scanner";
import { DEFAULT_FILTERS, hasActiveFilters, type InventoryFilters } from "../filters";
import { useFilteredProducts } from "../hooks/use-filtered-products";
import { FilterBar } from "./filter-bar";
import { ProductGrid } from "./product-grid";

export const STATUS_FAILED = "Failed to update product status";

type Modal =
  | { kind: "none" }
  | { kind: "add"; barcode?: string }
  | { kind: "edit"; product: Product }
  | { kind: "scan" }
  | { kind: "csv" }
  | { kind: "audit"; product?: Product };

/** 'Inventory Management': search and filters, the product grid, and the product dialogs. */
export function InventoryView() {
  const { permissions } = useAuth();
  const canManage = permissions.canManageProducts;
  const products = useProductList();
  const [filters, setFilters] = useState<InventoryFilters>(DEFAULT_FILTERS);
  const { filtered, options } = useFilteredProducts(products.products, filters);
  const [modal, setModal] = useState<Modal>({ kind: "none" });
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(new Set());
  const setStatus = useSetProductStatus();
  const close = useCallback(() => setModal({ kind: "none" }), []);
  const clearFilters = useCallback(() => setFilters(DEFAULT_FILTERS), []);

  const onEdit = useCallback((product: Product) => setModal({ kind: "edit", product }), []);
  const onHistory = useCallback((product: Product) => setModal({ kind: "audit", product }), []);
  const { mutateAsync: changeStatus } = setStatus;
  const onToggleStatus = useCallback(
    async (product: Product) => {
      const next = product.is_active === false;
      setBusyIds((s) => new Set(s).add(product.id));
      try {
        const updated = await changeStatus({ id: product.id, isActive: next });
        notify.success(`${productNameOf(updated)} ${updated.is_active ? "enabled" : "disabled"}`);
      } catch (err) {
        notify.error(STATUS_FAILED, { description: err instanceof Error ? err.message : undefined });
      } finally {
        setBusyIds((s) => {
          const out = new Set(s);
          out.delete(product.id);
          return out;
        });
      }
    },
    [changeStatus],
  );

  const total = products.products.length;
  const filtersOn = hasActiveFilters(filters);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Inventory Management</h1>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setModal({ kind: "scan" })}>
              <ScanLine aria-hidden="true" className="h-4 w-4" />
              Scan to Add Product
            </Button>
            <Button variant="success" onClick={() => setModal({ kind: "add" })}>
              <PackagePlus aria-hidden="true" className="h-4 w-4" />
              Add Product Manually
            </Button>
            <Button variant="outline" onClick={() => setModal({ kind: "csv" })}>
              <FileSpreadsheet aria-hidden="true" className="h-4 w-4" />
              Import/Export CSV
            </Button>
            <Button variant="outline" onClick={() => setModal({ kind: "audit" })}>
              <ClipboardList aria-hidden="true" className="h-4 w-4" />
              View Audit Trail
            </Button>
          </div>
        ) : null}
      </div>

      {products.pending ? (
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
      ) : total === 0 ? (
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
          <FilterBar filters={filters} onChange={setFilters} onClear={clearFilters} vendors={options.vendors} years={options.years} />
          <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite" data-testid="results-summary">
            <span>
              Showing {filtered.length.toLocaleString("en-US")} of {total.toLocaleString("en-US")} products
            </span>
            {filtersOn ? (
              <Button variant="ghost" size="sm" onClick={clearFilters} className="text-blue-800 underline dark:text-blue-300">
                Clear filters
              </Button>
            ) : null}
          </div>
          {filtered.length === 0 ? (
            <div className="rounded-xl border border-dashed border-gray-400 p-8 text-center dark:border-gray-600">
              <p className="font-semibold">No products match your search or filters.</p>
              <p className="text-sm text-gray-700 dark:text-gray-300">Try a different search, or clear the filters.</p>
            </div>
          ) : (
            <ProductGrid
              products={filtered}
              canManageProducts={canManage}
              onEdit={onEdit}
              onToggleStatus={onToggleStatus}
              onHistory={canManage ? onHistory : undefined}
              busyIds={busyIds}
            />
          )}
        </>
      )}

      <Suspense fallback={null}>
        {modal.kind === "add" ? <AddProductDialog onClose={close} initialBarcode={modal.barcode} /> : null}
        {modal.kind === "edit" ? <EditProductDialog product={modal.product} onClose={close} /> : null}
        {modal.kind === "scan" ? (
          <ScannerOverlay
            mode="add"
            onClose={close}
            onFound={(product) => setModal({ kind: "edit", product })}
            onNotFound={(barcode) => setModal({ kind: "add", barcode })}
          />
        ) : null}
        {modal.kind === "csv" ? <CsvDialog onClose={close} /> : null}
        {modal.kind === "audit" ? <AuditDialog onClose={close} product={modal.product} /> : null}
      </Suspense>
    </div>
  );
}
