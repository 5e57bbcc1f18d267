import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookDelivery } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** POST /api/webhooks/{id}/deliveries/{delivery}/retry: sent again now, same webhook-id. */
export function retryDelivery(webhookId: number, deliveryId: number): Promise<WebhookDelivery> {
  return apiFetch<WebhookDelivery>(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, { method: "POST" });
}

export function useRetryDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }) => retryDelivery(webhookId, deliveryId),
    onSettled: (_data, _error, { webhookId }) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}
