import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { IMPORTS_LIMIT_DEFAULT, type ImportSummary } from "../../../../contract/imports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/**
 * The imports list sits under the audit keys: every live inventory_update (an import finishing
 * anywhere, an undo, a change to a product an import touched) and the dialog's own import
 * invalidate `queryKeys.audit`, so a list on screen refetches by itself.
 */
export const importsKey = [...queryKeys.audit, "imports"] as const;

/** While an import is being received or written, the list asks again this often (its progress). */
export const RUNNING_POLL_MS = 2_000;

/** GET /api/imports: the newest imports first (needs canManageProducts). */
export function listImports(page: { limit: number; offset?: number }, signal?: AbortSignal): Promise<ImportSummary[]> {
  const query = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset ?? 0) });
  return apiFetch<ImportSummary[]>(`/api/imports?${query}`, { signal });
}

/** Being staged or written: its counts still move. */
export const isRunning = (i: ImportSummary): boolean => i.status === "staging" || i.status === "committing";

/** Only a finished import that was not undone yet can be undone. */
export const canUndo = (i: ImportSummary): boolean => i.status === "done" && i.undone_at === null;

/** The newest `limit` imports; polls while one of them is still running. */
export const importsQuery = (limit = IMPORTS_LIMIT_DEFAULT) =>
  queryOptions({
    queryKey: [...importsKey, { limit }] as const,
    queryFn: ({ signal }) => listImports({ limit }, signal),
    // Showing more keeps the shorter list on screen until the longer one arrives.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? RUNNING_POLL_MS : false),
  });
