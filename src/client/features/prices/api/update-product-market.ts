import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MarketIds, ProductMarket } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** PUT /api/products/{id}/market: the ids, finish or frozen price sent (what is left out stays); answers the product's market. */
export function updateProductMarket(productId: number, body: Partial<MarketIds>): Promise<ProductMarket> {
  return apiFetch<ProductMarket>(`/api/products/${productId}/market`, { method: "PUT", body });
}

export function useUpdateProductMarket(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<MarketIds>) => updateProductMarket(productId, body),
    onSuccess: (market) => queryClient.setQueryData(priceKeys.market(productId), market),
  });
}
