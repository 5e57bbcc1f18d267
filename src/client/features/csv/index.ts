import { lazy } from "react";

// The dialog (and papaparse) loads when first opened.
export const CsvDialog = lazy(() => import("./components/csv-dialog").then((m) => ({ default: m.CsvDialog })));
