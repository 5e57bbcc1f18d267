import { lazy } from "react";

// Market prices: a product's market price where people look at products. Each part loads when
// first shown: the screens that import this file carry none of them.

/** The Edit Product dialog's Market section. */
export const MarketSection = lazy(() => import("./components/market-section").then((m) => ({ default: m.MarketSection })));
/** The streamer's "Market $12.34" beside the current price. */
export const MarketPriceLine = lazy(() => import("./components/market-price-line").then((m) => ({ default: m.MarketPriceLine })));
