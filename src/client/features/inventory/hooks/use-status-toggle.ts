import { useCallback, useState } from "react";
import type { Product } from "../../../../contract/products";
import { failureText, notify } from "../../notifications";
import { productNameOf, useSetProductStatus } from "../../products";

export const STATUS_FAILED = "Failed to update product status";
/** How long a Disable/Enable can be undone from its toast. */
export const STATUS_UNDO_MS = 8000;

/**
 * Disable/Enable (button or swipe) with the inverse of the current state, undoable from its toast
 * for STATUS_UNDO_MS. `onChanged` hears every change this tab made (e.g. to keep a disabled
 * product in view until the filters change).
 */
export function useStatusToggle(onChanged?: (product: Product) => void) {
  const { mutateAsync } = useSetProductStatus();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(new Set());

  const setStatus = useCallback(
    async (product: Product, isActive: boolean, undo: boolean): Promise<void> => {
      setBusyIds((s) => new Set(s).add(product.id));
      // Keep the product in view from the start: the store's copy changes before the answer.
      onChanged?.(product);
      try {
        const updated = await mutateAsync({ id: product.id, isActive });
        const message = `${productNameOf(updated)} ${updated.is_active ? "enabled" : "disabled"}`;
        const id = `status-${product.id}`;
        if (undo) notify.success(message, { id });
        else {
          notify.success(message, {
            id,
            duration: STATUS_UNDO_MS,
            action: { label: "Undo", onClick: () => void setStatus(updated, !isActive, true) },
          });
        }
      } catch (err) {
        notify.error(failureText(STATUS_FAILED, err));
      } finally {
        setBusyIds((s) => {
          const out = new Set(s);
          out.delete(product.id);
          return out;
        });
      }
    },
    [mutateAsync, onChanged],
  );

  const toggle = useCallback((product: Product) => setStatus(product, product.is_active === false, false), [setStatus]);
  return { toggle, busyIds };
}
