import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../contract/orders";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/orders/{id}: one order with its lines (managers and super_admin). */
export async function getOrder(id: number, signal?: AbortSignal): Promise<Order> {
  return (await apiFetch<{ order: Order }>(`/api/orders/${id}`, { signal })).order;
}

/** Under ["orders", "one", id]: live order_update events invalidate it with the lists. */
export const orderQuery = (id: number) =>
  queryOptions({ queryKey: [...queryKeys.orders, "one", id], queryFn: ({ signal }) => getOrder(id, signal) });

export function useOrder(id: number) {
  return useQuery(orderQuery(id));
}
