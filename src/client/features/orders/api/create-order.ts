import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreditLedger } from "../../../../contract/counter";
import type { CreateOrderBody, Order } from "../../../../contract/orders";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** POST /api/orders: 201 with the order, or 200 with the same order when its channel and external_id were sent before (a retry). */
export async function createOrder(body: CreateOrderBody): Promise<Order> {
  return (await apiFetch<{ order: Order }>("/api/orders", { method: "POST", body })).order;
}

export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrder,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.orders }),
        queryClient.invalidateQueries({ queryKey: ["counter"] }),
      ]),
  });
}

/** GET /api/customers/{id}/credit: the customer's store credit balance now. */
export async function customerBalance(id: number): Promise<number> {
  return (await apiFetch<CreditLedger>(`/api/customers/${id}/credit`)).balance;
}

/** A counter sale's external id, made once per sale on this device: a retry after a dropped connection sends it again. */
export function newSaleId(now = new Date()): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `sale-${now.toISOString().slice(0, 10)}-${hex}`;
}
