import type { StockTakeUpdate } from "../../contract/stock-takes";

// The live `stock_take_update` events, handed from the live connection (features/presence) to the
// stock takes' screens (features/stock-takes), which patch their running totals with each scan's
// answer instead of asking for the whole review again at every scan of every device.

type Listener = (update: StockTakeUpdate) => void;
const listeners = new Set<Listener>();

export function publishStockTakeUpdate(update: StockTakeUpdate): void {
  for (const listener of listeners) listener(update);
}

/** Hears every stock_take_update until the returned function is called. */
export function subscribeStockTakeUpdates(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
