import { useQuery } from "@tanstack/react-query";
import type { ProductMarket } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** Market prices change at most daily: a product shown again within a minute is not asked for again. */
const MARKET_STALE_MS = 60_000;

/** GET /api/products/{id}/market-prices: how feeds find the product, its latest market prices and their history. */
export function getProductMarket(productId: number, signal?: AbortSignal): Promise<ProductMarket> {
  return apiFetch<ProductMarket>(`/api/products/${productId}/market-prices`, { signal });
}

export function useProductMarket(productId: number) {
  return useQuery({
    queryKey: priceKeys.market(productId),
    queryFn: ({ signal }) => getProductMarket(productId, signal),
    staleTime: MARKET_STALE_MS,
  });
}
