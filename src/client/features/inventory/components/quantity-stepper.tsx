import { Minus, Plus } from "lucide-react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { usePressRepeat } from "../hooks/use-press-repeat";
import { useQuantityChange } from "../hooks/use-quantity-change";

/** Quantity -/+ of one product (click: 1; hold: repeats), the stock shown with this tab's changes in flight. */
export function QuantityStepper({ product, size = "md" }: { product: Product; size?: "sm" | "md" }) {
  const active = product.is_active !== false;
  const { shown, step } = useQuantityChange(product);
  const minus = usePressRepeat(() => step(-1));
  const plus = usePressRepeat(() => step(1));
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
        <Minus aria-hidden="true" className="h-4 w-4" />
      </Button>
      <output
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
        <Plus aria-hidden="true" className="h-4 w-4" />
      </Button>
    </div>
  );
}
