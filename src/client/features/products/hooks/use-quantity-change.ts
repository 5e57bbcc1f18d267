import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { type Product, QUANTITY_REASONS } from "../../../../contract/products";
import { queryKeys } from "../../../lib/query-client";
import { notify } from "../../notifications/notify";
import { adjustQuantity, newIdempotencyKey } from "../api/adjust-quantity";
import { replaceProduct } from "../api/list-products";

export const QUANTITY_FAILED = "Failed to update quantity";

/**
 * Quantity -/+ of one card: every step is its own request with its own Idempotency-Key and
 * reason 'Manual adjustment'. The shown stock is the server's plus the steps still in flight.
 */
export function useQuantityChange(product: Product) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(0);
  const pendingRef = useRef(0);

  const addPending = useCallback((delta: number) => {
    pendingRef.current += delta;
    setPending(pendingRef.current);
  }, []);

  const shown = product.quantity_on_hand + pending;

  /** One step; answers false when it cannot be made (stock would go below 0). */
  const step = useCallback(
    (delta: 1 | -1): boolean => {
      if (!product.is_active) return false;
      if (delta < 0 && product.quantity_on_hand + pendingRef.current <= 0) return false;
      addPending(delta);
      adjustQuantity(product.id, { quantity_change: delta, reason: QUANTITY_REASONS.inventory }, newIdempotencyKey())
        .then((updated) => {
          queryClient.setQueryData<Product[]>(queryKeys.products, (old) => replaceProduct(old, updated));
          void queryClient.invalidateQueries({ queryKey: queryKeys.products });
        })
        .catch((err: unknown) => {
          notify.error(QUANTITY_FAILED, { description: err instanceof Error ? err.message : undefined, id: `quantity-${product.id}` });
          void queryClient.invalidateQueries({ queryKey: queryKeys.products });
        })
        .finally(() => addPending(-delta));
      return delta > 0 || product.quantity_on_hand + pendingRef.current > 0;
    },
    [product.id, product.is_active, product.quantity_on_hand, queryClient, addPending],
  );

  return { shown, pending, step };
}
