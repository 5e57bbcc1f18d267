import { useCallback } from "react";
import type { Product } from "../../../../contract/products";
import { QUANTITY_REASONS } from "../../../../contract/rules";
import { errorText, notify } from "../../notifications";
import { QUANTITY_FAILED, usePendingDelta, useProductStore } from "../../products";

/**
 * Quantity -/+ of one inventory card, through the product store's queue like a streamer's tap:
 * every step is its own change with its own Idempotency-Key and reason 'Manual adjustment'; it
 * waits as pending while the server is out of reach (also across a reload), and a refusal (4xx,
 * 500) shows at once with the server's reason. The shown stock is the stored one plus this
 * tab's steps still queued.
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
      store.tap(id, delta, QUANTITY_REASONS.inventory).catch((err: unknown) => {
        notify.error(`${QUANTITY_FAILED}: ${errorText(err)}`, { id: `quantity-${id}` });
      });
      return delta > 0 || now + delta > 0;
    },
    [store, id, is_active],
  );

  return { shown, step };
}
