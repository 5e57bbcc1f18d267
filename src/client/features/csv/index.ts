import { lazy } from "react";

// Not csv-import (the import's checks, with the contract's zod schemas): it loads with the dialog,
// not with every screen that writes a file.
export { amountCell, type CsvRow, downloadCsv, toCsv } from "./csv-format";

// The dialog loads when first opened.
export const CsvDialog = lazy(() => import("./components/csv-dialog").then((m) => ({ default: m.CsvDialog })));
// Undo of any import: the prices screen undoes the import its accepted prices were written as.
export { useUndoImport } from "./api/undo-import";
