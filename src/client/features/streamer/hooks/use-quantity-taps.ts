import { useCallback } from "react";
import type { Product } from "../../../../contract/products";
import { QUANTITY_REASONS } from "../../../../contract/rules";
import { errorText, notify } from "../../notifications";
import { QUANTITY_FAILED, useProductStore } from "../../products";
import { playFeedback } from "../feedback";

export const UNDO_WINDOW_MS = 10_000;
const TAP_TOAST_ID = "streamer-tap";

/**
 * SOLD/ADD taps through the product store: each tap is sent at once with its own
 * Idempotency-Key (retries reuse it) and shows at once as pending; the stock then follows the
 * server (the tap's own event or its answer, whichever comes first).
 */
export function useQuantityTaps() {
  const store = useProductStore();

  const tap = useCallback(
    async (product: Product, delta: number, opts: { undo?: boolean } = {}): Promise<Product | null> => {
      try {
        const updated = await store.adjust(product.id, delta, opts.undo ? QUANTITY_REASONS.undo : QUANTITY_REASONS.streamer);
        playFeedback(delta < 0 ? "sale" : "add");
        const name = updated.product_name;
        const message = opts.undo
          ? `Undone: ${name} is back to ${updated.quantity_on_hand}`
          : delta < 0
            ? `Sold ${-delta}: ${name} (${updated.quantity_on_hand} left)`
            : `Added ${delta}: ${name} (${updated.quantity_on_hand} in stock)`;
        if (opts.undo) {
          notify.success(message, { id: TAP_TOAST_ID });
        } else {
          notify.success(message, {
            id: TAP_TOAST_ID,
            duration: UNDO_WINDOW_MS,
            action: { label: "Undo", onClick: () => void tap(updated, -delta, { undo: true }) },
          });
        }
        return updated;
      } catch (err) {
        playFeedback("error");
        notify.error(`${QUANTITY_FAILED}: ${errorText(err)}`, { id: TAP_TOAST_ID });
        return null;
      }
    },
    [store],
  );

  return { tap };
}
