import {
  IMPORT_PART_ROWS,
  type ImportJob,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
  importInputOf,
} from "../../../../contract/import";
import { apiFetch } from "../../../lib/http";

/** Checked rows as the API reads them (amounts, not cents). */
const bodyOf = (rows: ImportRow[]) => rows.map(importInputOf);

/** POST /api/products/import: created, updated, skipped and errors (a file of one part). */
export function importProducts(products: ImportRow[]): Promise<ImportResult> {
  return apiFetch<ImportResult>("/api/products/import", { method: "POST", body: { products: bodyOf(products) } });
}

/** POST /api/products/import?dry_run=true for one part: what it would do, row by row (rows numbered as in the file). */
export function previewImport(products: ImportRow[], firstRow = 2): Promise<ImportPreview> {
  return apiFetch<ImportPreview>("/api/products/import?dry_run=true", {
    method: "POST",
    body: { products: bodyOf(products), first_row: firstRow },
  });
}

/** The rows in parts of IMPORT_PART_ROWS, each with the file row number of its first row. */
export function partsOf<T>(rows: readonly T[], size = IMPORT_PART_ROWS): Array<{ rows: T[]; firstRow: number }> {
  const parts: Array<{ rows: T[]; firstRow: number }> = [];
  for (let i = 0; i < rows.length; i += size) parts.push({ rows: rows.slice(i, i + size), firstRow: i + 2 });
  return parts;
}

/** The dry run of a whole file, part by part (each call well within 10 s); `onProgress` hears 0 to 1. */
export async function previewInParts(rows: ImportRow[], onProgress: (fraction: number) => void): Promise<ImportPreview> {
  const total: ImportPreview = { created: 0, updated: 0, skipped: 0, errors: [], rows: [] };
  const parts = partsOf(rows);
  for (const [i, part] of parts.entries()) {
    const p = await previewImport(part.rows, part.firstRow);
    total.created += p.created;
    total.updated += p.updated;
    total.skipped += p.skipped;
    total.errors.push(...p.errors);
    total.rows.push(...p.rows);
    onProgress((i + 1) / parts.length);
  }
  return total;
}

const POLL_MS = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How an import in parts is going: the share of rows sent, then the share the server has written. */
export interface ImportProgress {
  sent: number;
  saving: boolean;
  saved?: number;
}

/**
 * A file of several parts: staged part by part, then committed: the server writes it as a durable
 * job in short transactions (resumed after a restart). `onProgress` hears the share of rows sent
 * (0 to 1), then the share written while the server writes them. Every call answers within seconds.
 */
export async function importInParts(rows: ImportRow[], onProgress: (state: ImportProgress) => void): Promise<ImportResult> {
  const job = await apiFetch<ImportJob>("/api/products/import/jobs", { method: "POST" });
  const parts = partsOf(rows);
  for (const [i, part] of parts.entries()) {
    await apiFetch<ImportJob>(`/api/products/import/jobs/${job.id}/parts/${i}`, { method: "PUT", body: { products: bodyOf(part.rows) } });
    onProgress({ sent: (i + 1) / parts.length, saving: false });
  }
  let state = await apiFetch<ImportJob>(`/api/products/import/jobs/${job.id}/commit`, { method: "POST" });
  onProgress({ sent: 1, saving: true });
  while (state.status === "committing" || state.status === "staging") {
    await sleep(POLL_MS);
    state = await apiFetch<ImportJob>(`/api/products/import/jobs/${job.id}`);
    if (state.processed !== undefined && state.received > 0) onProgress({ sent: 1, saving: true, saved: state.processed / state.received });
  }
  if (state.status === "failed" || !state.result) throw new Error(state.error ?? "The import could not be saved");
  return state.result;
}

/** One call for a file of one part, else parts. */
export function importFile(rows: ImportRow[], onProgress: (state: ImportProgress) => void): Promise<ImportResult> {
  return rows.length <= IMPORT_PART_ROWS ? importProducts(rows) : importInParts(rows, onProgress);
}
