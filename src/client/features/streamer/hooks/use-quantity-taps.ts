import { useCallback, useEffect, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { QUANTITY_REASONS } from "../../../../contract/rules";
import { errorText, notify } from "../../notifications";
import { QUANTITY_FAILED, useProductStore } from "../../products";
import { playFeedback } from "../feedback";

export const UNDO_WINDOW_MS = 10_000;
const TAP_TOAST_ID = "streamer-tap";

/** The streamer's last tap, shown in the page under the buttons (never over them) with its Undo. */
export interface LastTap {
  /** Its own id: a newer tap replaces it. */
  n: number;
  product: Product;
  delta: number;
  undo: boolean;
  /** The server's product once applied; null while it waits (offline: it is sent once the server is back). */
  applied: Product | null;
}

export function lastTapText(t: LastTap): string {
  const name = (t.applied ?? t.product).product_name;
  if (!t.applied) {
    const what = t.undo ? "Undo" : t.delta < 0 ? `Sold ${-t.delta}` : `Added ${t.delta}`;
    return `${what}: ${name} (pending)`;
  }
  const stock = t.applied.quantity_on_hand;
  if (t.undo) return `Undone: ${name} is back to ${stock}`;
  return t.delta < 0 ? `Sold ${-t.delta}: ${name} (${stock} left)` : `Added ${t.delta}: ${name} (${stock} in stock)`;
}

/**
 * SOLD/ADD taps through the product store: each shows at once as pending, waits in order while
 * the server is out of reach (also across a reload) and is sent with its own Idempotency-Key;
 * the stock then follows the server. `showId`: the running show, so the tap counts in its tally.
 * The last tap stays on screen with its Undo for 10 s after it was applied.
 */
export function useQuantityTaps(showId?: number, onApplied?: () => void) {
  const store = useProductStore();
  const [last, setLast] = useState<LastTap | null>(null);
  const counter = useRef(0);
  const context = useRef({ showId, onApplied });
  context.current = { showId, onApplied };

  const tap = useCallback(
    async (product: Product, delta: number, opts: { undo?: boolean } = {}): Promise<Product | null> => {
      const n = ++counter.current;
      const undo = opts.undo === true;
      setLast({ n, product, delta, undo, applied: null });
      playFeedback(delta < 0 ? "sale" : "add");
      try {
        const reason = undo ? QUANTITY_REASONS.undo : QUANTITY_REASONS.streamer;
        const updated = await store.tap(product.id, delta, reason, { showId: context.current.showId });
        setLast((l) => (l?.n === n ? { ...l, applied: updated } : l));
        context.current.onApplied?.();
        return updated;
      } catch (err) {
        playFeedback("error");
        setLast((l) => (l?.n === n ? null : l));
        notify.error(`${QUANTITY_FAILED}: ${errorText(err)}`, { id: TAP_TOAST_ID });
        return null;
      }
    },
    [store],
  );

  // An applied tap can be undone for 10 s; one still waiting for the server stays until it is applied.
  useEffect(() => {
    if (!last?.applied) return;
    const timer = setTimeout(() => setLast((l) => (l?.n === last.n ? null : l)), UNDO_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [last]);

  const undoLast = useCallback(() => {
    if (!last || last.undo) return;
    setLast(null);
    void tap(last.applied ?? last.product, -last.delta, { undo: true });
  }, [last, tap]);

  return { tap, last, undoLast };
}
