import { lazy } from "react";

// Market prices: feeds, repricing rules and the review of the prices they propose (the Prices
// view), and a product's market price where people look at products. Each part loads when first
// shown: the app's first screen imports this file, and carries none of them.

export const PricesView = lazy(() => import("./components/prices-view").then((m) => ({ default: m.PricesView })));
/** The Edit Product dialog's Market section. */
export const MarketSection = lazy(() => import("./components/market-section").then((m) => ({ default: m.MarketSection })));
/** The streamer's "Market $12.34" beside the current price. */
export const MarketPriceLine = lazy(() => import("./components/market-price-line").then((m) => ({ default: m.MarketPriceLine })));
