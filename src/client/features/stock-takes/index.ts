import { lazy } from "react";

// The stock takes' screens load when first shown.
export const StockTakesView = lazy(() => import("./components/stock-takes-view").then((m) => ({ default: m.StockTakesView })));
