import { lazy } from "react";

// The counter's screens (issue 40) load when first shown.
export const CounterView = lazy(() => import("./components/counter-view").then((m) => ({ default: m.CounterView })));
export const CustomersView = lazy(() => import("./components/customers-view").then((m) => ({ default: m.CustomersView })));
