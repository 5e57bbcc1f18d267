import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { Order, OrdersQuery } from "../../../../contract/orders";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/orders: newest first, by channel, status and days (managers and super_admin). */
export function listOrders(query: OrdersQuery, signal?: AbortSignal): Promise<Order[]> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const qs = params.toString();
  return apiFetch<Order[]>(`/api/orders${qs ? `?${qs}` : ""}`, { signal });
}

/** Under ["orders", query]: live order_update events invalidate every orders query. */
export const ordersQuery = (query: OrdersQuery) =>
  queryOptions({ queryKey: [...queryKeys.orders, query], queryFn: ({ signal }) => listOrders(query, signal) });

export function useOrders(query: OrdersQuery) {
  return useQuery({ ...ordersQuery(query), placeholderData: keepPreviousData });
}
