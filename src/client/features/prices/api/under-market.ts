import { useInfiniteQuery } from "@tanstack/react-query";
import type { UnderMarketAnswer, UnderMarketProduct } from "../../../../contract/market-views";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** Products asked for at a time ("Show more" asks for the next as many). */
export const UNDER_MARKET_PAGE = 50;

/** GET /api/prices/under-market: a page of the products priced under their market price, the most money at stake first. */
export function listUnderMarket(page: { limit: number; offset: number }, signal?: AbortSignal): Promise<UnderMarketAnswer> {
  return apiFetch<UnderMarketAnswer>(`/api/prices/under-market?limit=${page.limit}&offset=${page.offset}`, { signal });
}

/** The list page by page; `products` the pages so far, `total` and `totalAtStake` from the latest page. */
export function useUnderMarket() {
  const query = useInfiniteQuery({
    queryKey: priceKeys.underMarket,
    queryFn: ({ pageParam, signal }) => listUnderMarket({ limit: UNDER_MARKET_PAGE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.products.length, 0);
      return last.products.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
  const pages = query.data?.pages ?? [];
  const products: UnderMarketProduct[] = pages.flatMap((p) => p.products);
  const latest = pages.at(-1);
  return { ...query, products, total: latest?.total ?? 0, totalAtStake: latest?.total_at_stake ?? 0 };
}
