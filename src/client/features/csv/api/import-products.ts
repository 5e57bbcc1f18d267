import type { ImportPreview, ImportResult, ImportRow } from "../../../../contract/import";
import { apiFetch } from "../../../lib/http";

/** Large imports run in one transaction on the server; allow them more than the usual 10 s. */
const IMPORT_TIMEOUT_MS = 180_000;

/** POST /api/products/import: created, updated, skipped and errors. */
export function importProducts(products: ImportRow[]): Promise<ImportResult> {
  return apiFetch<ImportResult>("/api/products/import", { method: "POST", body: { products }, timeoutMs: IMPORT_TIMEOUT_MS });
}

/** POST /api/products/import?dry_run=true: what an import would do, row by row; writes nothing. */
export function previewImport(products: ImportRow[]): Promise<ImportPreview> {
  return apiFetch<ImportPreview>("/api/products/import?dry_run=true", {
    method: "POST",
    body: { products },
    timeoutMs: IMPORT_TIMEOUT_MS,
  });
}
