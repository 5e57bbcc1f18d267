import { lazy } from "react";

// The Reports view (and its chart library) loads when first shown.
export const ReportsView = lazy(() => import("./components/reports-view").then((m) => ({ default: m.ReportsView })));
