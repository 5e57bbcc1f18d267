import { lazy } from "react";

// The orders screen loads when first shown.
export const OrdersView = lazy(() => import("./components/orders-view").then((m) => ({ default: m.OrdersView })));
