import { Minus, Plus } from "lucide-react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { usePressRepeat } from "../hooks/use-press-repeat";
import { useQuantityChange } from "../hooks/use-quantity-change";

// The same elements on every render: a row given another product re-renders its stepper, not its icons.
const MINUS_ICON = <Minus aria-hidden="true" className="h-4 w-4" />;
const PLUS_ICON = <Plus aria-hidden="true" className="h-4 w-4" />;

/**
 * Quantity -/+ of one product (click: 1; hold: repeats), the stock shown with this tab's changes
 * in flight. A table row or card keeps its stepper when it is given another product (typing
 * changes the products in view): a held press stays with the product it began on and stops.
 */
export function QuantityStepper({ product, size = "md" }: { product: Product; size?: "sm" | "md" }) {
  const active = product.is_active !== false;
  const { shown, step } = useQuantityChange(product);
  const minus = usePressRepeat(() => step(-1), product.id);
  const plus = usePressRepeat(() => step(1), product.id);
  const button = size === "sm" ? "h-8 w-8" : undefined;
  return (
    <div className="flex items-center gap-1.5">
      <Button
        variant="outline"
        size="icon"
        className={button}
        aria-label={`Decrease quantity of ${product.product_name}`}
        disabled={!active || shown <= 0}
        {...minus}
      >
        {MINUS_ICON}
      </Button>
      {/* Keyed by product: a live region announces changes of its product's stock, not the next product's. */}
      <output
        key={product.id}
        className={cn("text-center font-bold tabular-nums", size === "sm" ? "min-w-8 text-base" : "min-w-10 text-xl")}
        aria-label="Quantity on hand"
        aria-live="polite"
      >
        {shown}
      </output>
      <Button
        variant="outline"
        size="icon"
        className={button}
        aria-label={`Increase quantity of ${product.product_name}`}
        disabled={!active}
        {...plus}
      >
        {PLUS_ICON}
      </Button>
    </div>
  );
}
