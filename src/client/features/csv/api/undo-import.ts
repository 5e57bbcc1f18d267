import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ImportSummary, ImportUndoResult } from "../../../../contract/imports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { importsKey } from "./list-imports";

const UNDO_TIMEOUT_MS = 120_000;

/**
 * POST /api/imports/{id}/undo: what went back, what was disabled, and what was left as it is
 * and why. 409 `{error}` while the import runs or once it is undone; 404 for an unknown id.
 */
export function undoImport(id: string): Promise<ImportUndoResult> {
  // A large import is reverted in many short transactions within one call: more than the usual 10 s.
  return apiFetch<ImportUndoResult>(`/api/imports/${encodeURIComponent(id)}/undo`, { method: "POST", timeoutMs: UNDO_TIMEOUT_MS });
}

export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoImport,
    onSuccess: (result) => {
      queryClient.setQueriesData<ImportSummary[]>({ queryKey: importsKey }, (old) =>
        old?.map((i) => (i.id === result.import.id ? result.import : i)),
      );
    },
    // Success or not (e.g. undone meanwhile elsewhere), the lists and trails on screen show what the server now holds.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.audit }),
  });
}
