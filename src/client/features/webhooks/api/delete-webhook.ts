import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** DELETE /api/webhooks/{id}: the endpoint and its delivery log. */
export function deleteWebhook(id: number): Promise<void> {
  return apiFetch<void>(`/api/webhooks/${id}`, { method: "DELETE" });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
