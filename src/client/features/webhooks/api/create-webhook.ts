import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedWebhook, CreateWebhookBody } from "../../../../contract/webhooks";
import { apiFetch } from "../../../lib/http";
import { webhookKeys } from "./list-webhooks";

/** POST /api/webhooks: the new endpoint and its secret, shown this once. */
export function createWebhook(body: CreateWebhookBody): Promise<CreatedWebhook> {
  return apiFetch<CreatedWebhook>("/api/webhooks", { method: "POST", body });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
