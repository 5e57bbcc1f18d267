import { useQuery } from "@tanstack/react-query";
import type { PricingRules } from "../../../../contract/pricing-rules";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** GET /api/prices/rules: the repricing rules (the defaults until a manager saves them). */
export function getRules(signal?: AbortSignal): Promise<PricingRules> {
  return apiFetch<PricingRules>("/api/prices/rules", { signal });
}

export function useRules() {
  return useQuery({ queryKey: priceKeys.rules, queryFn: ({ signal }) => getRules(signal) });
}
