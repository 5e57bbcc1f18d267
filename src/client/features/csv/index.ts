import { lazy } from "react";

export { amountCell, type CsvRow, downloadCsv, toCsv } from "./csv-format";
export { parseCsvText } from "./csv-import";

// The dialog loads when first opened.
export const CsvDialog = lazy(() => import("./components/csv-dialog").then((m) => ({ default: m.CsvDialog })));
