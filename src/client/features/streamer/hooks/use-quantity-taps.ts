import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { type Product, QUANTITY_REASONS } from "../../../../contract/products";
import { ApiError } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { errorText, notify } from "../../notifications/notify";
import { adjustQuantity, newIdempotencyKey } from "../api/adjust-quantity";
import { playFeedback } from "../feedback";

export const QUANTITY_FAILED = "Failed to update quantity";
export const UNDO_WINDOW_MS = 10_000;
const TAP_TOAST_ID = "streamer-tap";

/**
 * SOLD/ADD taps: each tap is sent at once with its own Idempotency-Key (retries reuse it).
 * The display shows server stock plus the taps still in flight, and takes the server's
 * answer when it arrives, so it never drifts from the truth.
 */
export function useQuantityTaps() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Record<number, number>>({});

  const addPending = useCallback((id: number, delta: number) => {
    setPending((p) => {
      const next = { ...p };
      const value = (next[id] ?? 0) + delta;
      if (value === 0) delete next[id];
      else next[id] = value;
      return next;
    });
  }, []);

  const tap = useCallback(
    async (product: Product, delta: number, opts: { undo?: boolean } = {}): Promise<Product | null> => {
      const key = newIdempotencyKey();
      addPending(product.id, delta);
      try {
        const updated = await adjustQuantity(
          product.id,
          { quantity_change: delta, reason: opts.undo ? QUANTITY_REASONS.undo : QUANTITY_REASONS.streamer },
          key,
        );
        // The server's answer wins unless a newer one already arrived.
        queryClient.setQueryData<Product | null>(queryKeys.productByBarcode(updated.barcode), (old) =>
          old && old.id === updated.id && old.version > updated.version ? old : updated,
        );
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
        // The session ended (expired or account disabled): re-check, which signs out.
        if (err instanceof ApiError && err.status === 401) void queryClient.invalidateQueries({ queryKey: queryKeys.me });
        const reason = errorText(err);
        notify.error(`${QUANTITY_FAILED}: ${reason}`, { id: TAP_TOAST_ID });
        return null;
      } finally {
        addPending(product.id, -delta);
      }
    },
    [queryClient, addPending],
  );

  const pendingDelta = useCallback((id: number) => pending[id] ?? 0, [pending]);
  return { tap, pendingDelta };
}
