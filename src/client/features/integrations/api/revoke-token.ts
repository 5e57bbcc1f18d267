import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** DELETE /api/tokens/{id}: the token stops working at once, on every server process. */
export function revokeToken(id: number): Promise<void> {
  return apiFetch<void>(`/api/tokens/${id}`, { method: "DELETE" });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
}
