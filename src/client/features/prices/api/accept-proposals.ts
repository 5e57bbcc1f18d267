import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { acceptProposalsAnswerSchema } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

export type AcceptAnswer = z.infer<typeof acceptProposalsAnswerSchema>;
/** Some proposals by id, or every pending one. */
export type AcceptWhich = { ids: number[] } | { all: true };

/**
 * POST /api/prices/proposals/accept: the accepted proposals' prices are written as one import
 * (202 with its id; it runs on after the answer, and is undone like any import).
 */
export function acceptProposals(which: AcceptWhich): Promise<AcceptAnswer> {
  return apiFetch<AcceptAnswer>("/api/prices/proposals/accept", { method: "POST", body: which });
}

export function useAcceptProposals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptProposals,
    // Accepted or not (another manager may have decided them), the list shows what is still pending.
    onSettled: () => queryClient.invalidateQueries({ queryKey: priceKeys.proposals }),
  });
}
