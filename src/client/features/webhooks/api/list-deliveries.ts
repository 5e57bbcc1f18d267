import { useQuery } from "@tanstack/react-query";
import type { WebhookDelivery } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** GET /api/webhooks/{id}/deliveries: the newest 50, newest first. */
export function listDeliveries(id: number, signal?: AbortSignal): Promise<WebhookDelivery[]> {
  return apiFetch<WebhookDelivery[]>(`/api/webhooks/${id}/deliveries?limit=50`, { signal });
}

/** The delivery log while it is shown, looked at again every 2 s (attempts happen on the server). */
export function useDeliveries(id: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal }) => listDeliveries(id, signal),
    refetchInterval: 2_000,
  });
}
