import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedToken, CreateTokenBody } from "../../../../contract/tokens";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** POST /api/tokens: the token and its secret, answered this once. */
export function createToken(body: CreateTokenBody): Promise<CreatedToken> {
  return apiFetch<CreatedToken>("/api/tokens", { method: "POST", body });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
}
