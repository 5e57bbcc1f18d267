import { useCallback } from "react";
import type { Product } from "../../../../contract/products";
import { QUANTITY_REASONS } from "../../../../contract/rules";
import { notify } from "../../notifications";
import { QUANTITY_FAILED, usePendingDelta, useProductStore } from "../../products";

/**
 * Quantity -/+ of one inventory card, through the product store: every step is its own
 * request with its own Idempotency-Key and reason 'Manual adjustment'. The shown stock is the
 * stored one plus this tab's steps still in flight.
 */
export function useQuantityChange(product: Product) {
  const store = useProductStore();
  const shown = product.quantity_on_hand + usePendingDelta(product.id);
  const { id, is_active } = product;

  /** One step; answers false when no further step can be made (stock would go below 0). */
  const step = useCallback(
    (delta: 1 | -1): boolean => {
      // Read from the store, not the render: a held button steps faster than React renders.
      const now = store.shownQuantity(id);
      if (!is_active || (delta < 0 && now <= 0)) return false;
      store.adjust(id, delta, QUANTITY_REASONS.inventory).catch((err: unknown) => {
        notify.error(QUANTITY_FAILED, { description: err instanceof Error ? err.message : undefined, id: `quantity-${id}` });
      });
      return delta > 0 || now + delta > 0;
    },
    [store, id, is_active],
  );

  return { shown, step };
}
