import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PricingRules } from "../../../../contract/pricing-rules";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** The server makes every proposal again with the new rules before it answers. */
const SAVE_RULES_TIMEOUT_MS = 120_000;

/** PUT /api/prices/rules: the rules as saved; the pending proposals are made again with them. */
export function saveRules(rules: PricingRules): Promise<PricingRules> {
  return apiFetch<PricingRules>("/api/prices/rules", { method: "PUT", body: rules, timeoutMs: SAVE_RULES_TIMEOUT_MS });
}

export function useSaveRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRules,
    onSuccess: (saved) => queryClient.setQueryData(priceKeys.rules, saved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: priceKeys.proposals }),
  });
}
