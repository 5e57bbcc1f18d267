import { lazy } from "react";

const load = () => import("./components/inventory-view");
let loading: ReturnType<typeof load> | null = null;

/** Starts loading the inventory screen's code (once): a returning user's first screen loads while the session is checked. */
export const preloadInventoryView = () => {
  loading ??= load();
  return loading;
};

// The inventory screen loads when first shown (streamers never load it).
export const InventoryView = lazy(() => preloadInventoryView().then((m) => ({ default: m.InventoryView })));
