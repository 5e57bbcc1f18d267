import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateWebhookBody, Webhook } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** PUT /api/webhooks/{id}: url, events, description or enabled. */
export function updateWebhook(id: number, body: UpdateWebhookBody): Promise<Webhook> {
  return apiFetch<Webhook>(`/api/webhooks/${id}`, { method: "PUT", body });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateWebhookBody }) => updateWebhook(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
