import { lazy } from "react";

// The inventory screen loads when first shown (streamers never load it).
export const InventoryView = lazy(() => import("./components/inventory-view").then((m) => ({ default: m.InventoryView })));
