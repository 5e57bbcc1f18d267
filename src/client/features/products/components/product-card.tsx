import { History, Minus, Pencil, Plus, Power } from "lucide-react";
import { memo } from "react";
import type { Product } from "../../../../contract/products";
import { LOW_STOCK_MAX } from "../../../../contract/rules";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { usePressRepeat } from "../hooks/use-press-repeat";
import { useQuantityChange } from "../hooks/use-quantity-change";
import { useSwipe } from "../hooks/use-swipe";
import { type SwipeAction, swipeEnabled } from "../swipe";

export interface ProductCardProps {
  product: Product;
  canManageProducts: boolean;
  onEdit: (product: Product) => void;
  onToggleStatus: (product: Product) => void;
  /** Opens this product's audit trail (managers). */
  onHistory?: (product: Product) => void;
  /** A status change of this product is in flight. */
  statusBusy?: boolean;
}

export function isLowStock(quantity: number): boolean {
  return quantity <= LOW_STOCK_MAX;
}

/** One product: details, quantity -/+ (click or hold), Edit and Disable/Enable, swipe gestures. */
export const ProductCard = /* @__PURE__ */ memo(function ProductCard({
  product,
  canManageProducts,
  onEdit,
  onToggleStatus,
  onHistory,
  statusBusy,
}: ProductCardProps) {
  const active = product.is_active !== false;
  const { shown, step } = useQuantityChange(product);
  const minus = usePressRepeat(() => step(-1));
  const plus = usePressRepeat(() => step(1));
  const swipe = useSwipe(swipeEnabled(canManageProducts, active), (action: SwipeAction) => {
    if (action === "edit") onEdit(product);
    else onToggleStatus(product);
  });
  const toggleLabel = active ? "Disable" : "Enable";

  return (
    <article
      data-testid="product-card"
      data-barcode={product.barcode}
      aria-label={product.product_name}
      className="relative h-full overflow-hidden rounded-xl"
    >
      {swipe.hint ? (
        <div
          aria-hidden="true"
          className={cn(
            "absolute inset-0 flex items-center px-4 text-sm font-bold",
            swipe.hint === "edit" ? "justify-start bg-blue-700 text-white" : "justify-end bg-red-700 text-white",
          )}
        >
          {swipe.hint === "edit" ? "Edit" : toggleLabel}
        </div>
      ) : null}
      <div
        {...swipe.handlers}
        data-testid="product-card-body"
        style={swipe.offset ? { transform: `translateX(${swipe.offset}px)` } : undefined}
        className={cn(
          "relative flex h-full flex-col gap-3 rounded-xl border bg-white p-4 text-gray-900 shadow-sm dark:bg-gray-900 dark:text-gray-50",
          active
            ? "border-gray-200 dark:border-gray-700"
            : "border-dashed border-gray-400 bg-gray-50 dark:border-gray-500 dark:bg-gray-800",
          swipe.dragging ? "select-none" : "transition-transform",
          canManageProducts && active ? "touch-pan-y" : "",
        )}
      >
        <div className="flex items-start justify-between gap-2">
          <h2 className="min-w-0 break-words text-base font-bold leading-tight">{product.product_name}</h2>
          <div className="flex shrink-0 flex-wrap justify-end gap-1">
            {active ? null : <Badge variant="neutral">Disabled</Badge>}
            {isLowStock(shown) ? (
              <Badge variant={shown <= 0 ? "danger" : "warning"}>{shown <= 0 ? "Out of stock" : "Low stock"}</Badge>
            ) : null}
          </div>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
          <dt className="text-gray-700 dark:text-gray-300">Vendor</dt>
          <dd className="min-w-0 break-words">{product.vendor}</dd>
          <dt className="text-gray-700 dark:text-gray-300">Barcode</dt>
          <dd className="min-w-0 break-all font-mono">{product.barcode}</dd>
          <dt className="text-gray-700 dark:text-gray-300">Release Year</dt>
          <dd>{product.release_year ?? "—"}</dd>
        </dl>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Button
              variant="outline"
              size="icon"
              aria-label={`Decrease quantity of ${product.product_name}`}
              disabled={!active || shown <= 0}
              {...minus}
            >
              <Minus aria-hidden="true" className="h-4 w-4" />
            </Button>
            <output className="min-w-12 text-center text-xl font-bold tabular-nums" aria-label="Quantity on hand" aria-live="polite">
              {shown}
            </output>
            <Button variant="outline" size="icon" aria-label={`Increase quantity of ${product.product_name}`} disabled={!active} {...plus}>
              <Plus aria-hidden="true" className="h-4 w-4" />
            </Button>
          </div>
          {canManageProducts ? (
            <div className="flex gap-1.5">
              {onHistory ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="px-2"
                  aria-label={`Audit trail of ${product.product_name}`}
                  title="Audit trail"
                  onClick={() => onHistory(product)}
                >
                  <History aria-hidden="true" className="h-4 w-4 shrink-0" />
                </Button>
              ) : null}
              <Button variant="secondary" size="sm" onClick={() => onEdit(product)}>
                <Pencil aria-hidden="true" className="h-3.5 w-3.5" />
                Edit
              </Button>
              <Button variant={active ? "danger" : "success"} size="sm" disabled={statusBusy} onClick={() => onToggleStatus(product)}>
                <Power aria-hidden="true" className="h-3.5 w-3.5" />
                {toggleLabel}
              </Button>
            </div>
          ) : null}
        </div>
      </div>
    </article>
  );
});
