import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ApiToken } from "../../../../contract/tokens";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/tokens: every API token, revoked ones too, newest first (managers and super_admin). */
export function listTokens(signal?: AbortSignal): Promise<ApiToken[]> {
  return apiFetch<ApiToken[]>("/api/tokens", { signal });
}

export const tokensQuery = () => queryOptions({ queryKey: queryKeys.tokens, queryFn: ({ signal }) => listTokens(signal) });

export function useTokens() {
  return useQuery(tokensQuery());
}
