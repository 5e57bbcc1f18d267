import type { Product } from "../../../../contract/products";
import { fewLeft } from "../../../../contract/rules";
import { Card } from "../../../components/ui/card";
import { cn } from "../../../lib/cn";

interface RecentProductsProps {
  items: Array<{ barcode: string; product: Product }>;
  current: string | null;
  onPick: (barcode: string, product: Product) => void;
}

export function RecentProducts({ items, current, onPick }: RecentProductsProps) {
  return (
    <Card className="p-4">
      <h2 className="text-lg font-bold">Recent Products</h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">Products you scan appear here.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" data-testid="recent-products">
          {items.map(({ barcode, product }) => (
            <li key={barcode}>
              <button
                type="button"
                onClick={() => onPick(barcode, product)}
                aria-current={barcode === current ? "true" : undefined}
                className={cn(
                  "flex w-full items-center justify-between gap-3 rounded-lg border px-3 py-2.5 text-left transition-colors",
                  "focus-visible:outline-2 focus-visible:outline-blue-600 touch-manipulation",
                  barcode === current
                    ? "border-blue-700 bg-blue-50 dark:border-blue-400 dark:bg-blue-950"
                    : "border-gray-300 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800",
                )}
              >
                {/* The whole name, wrapped: variants differ at its end ("199/165 SIR", "1st Edition"). */}
                <span className="min-w-0">
                  <span className="block font-semibold leading-snug break-words">{product.product_name}</span>
                  <span className="block truncate font-mono text-xs text-gray-700 dark:text-gray-300">{product.barcode}</span>
                </span>
                <span
                  className={cn(
                    "shrink-0 text-sm font-bold tabular-nums",
                    fewLeft(product.quantity_on_hand) ? "text-amber-800 dark:text-amber-300" : "",
                  )}
                >
                  {product.quantity_on_hand} in stock
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
