import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookDelivery } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** POST /api/webhooks/{id}/test: a `webhook.test` delivery, pending. */
export function sendTestDelivery(id: number): Promise<WebhookDelivery> {
  return apiFetch<WebhookDelivery>(`/api/webhooks/${id}/test`, { method: "POST" });
}

export function useSendTestDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestDelivery,
    onSettled: (_data, _error, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
