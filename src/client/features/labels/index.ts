import { lazy } from "react";

/** "Print labels": loaded on demand with its PDF and barcode libraries. */
export const PrintLabelsDialog = lazy(() => import("./components/print-labels-dialog").then((m) => ({ default: m.PrintLabelsDialog })));
