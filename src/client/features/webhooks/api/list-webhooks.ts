import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Webhook } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";

/** Query keys of the webhooks feature. */
export const webhookKeys = {
  all: ["webhooks"] as const,
  deliveries: (id: number) => ["webhooks", id, "deliveries"] as const,
};

/** GET /api/webhooks: the endpoints, never their secrets (managers and super_admin). */
export function listWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return apiFetch<Webhook[]>("/api/webhooks", { signal });
}

export const webhooksQuery = () => queryOptions({ queryKey: webhookKeys.all, queryFn: ({ signal }) => listWebhooks(signal) });

/** The endpoints, looked at again every 10 s: the server may disable a failing one. */
export function useWebhooks() {
  return useQuery({ ...webhooksQuery(), refetchInterval: 10_000 });
}
