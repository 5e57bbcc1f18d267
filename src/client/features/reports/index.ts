import { lazy } from "react";

// The Reports view (and its chart library) loads when first shown.
export const ReportsView = lazy(() => import("./components/reports-view").then((m) => ({ default: m.ReportsView })));

// Today in the shop's time zone: other screens count days (a market price's age) as the reports do.
export { todayIn } from "./report-range";
