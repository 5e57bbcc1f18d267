import { lazy } from "react";

export { type CsvRow, downloadCsv, isoDay, toCsv } from "./csv-format";

// The dialog loads when first opened.
export const CsvDialog = lazy(() => import("./components/csv-dialog").then((m) => ({ default: m.CsvDialog })));
