import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order } from "../../../../contract/orders";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** POST /api/orders/{id}/cancel: every line's stock goes back; 409 when it was cancelled already. */
export async function cancelOrder(id: number): Promise<Order> {
  return (await apiFetch<{ order: Order }>(`/api/orders/${id}/cancel`, { method: "POST" })).order;
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.orders }),
  });
}
