import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeedCard, MarketIds, ProductMarket, UnmatchedAnswer } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";
import { updateProductMarket } from "./update-product-market";

/** Unmatched products asked for at a time ("Show more" asks for the next as many). */
export const UNMATCHED_PAGE = 50;

/** GET /api/prices/feeds/{id}/unmatched: a page of the products the feed's last run did not price, by name. */
export function listUnmatched(feedId: number, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<UnmatchedAnswer> {
  return apiFetch<UnmatchedAnswer>(`/api/prices/feeds/${feedId}/unmatched?limit=${page.limit}&offset=${page.offset}`, { signal });
}

export function useUnmatched(feedId: number | null) {
  const query = useInfiniteQuery({
    queryKey: priceKeys.unmatchedOf(feedId ?? 0),
    queryFn: ({ pageParam, signal }) => listUnmatched(feedId ?? 0, { limit: UNMATCHED_PAGE, offset: pageParam }, signal),
    initialPageParam: 0,
    enabled: feedId !== null,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.products.length, 0);
      return last.products.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
  const pages = query.data?.pages ?? [];
  return { ...query, products: pages.flatMap((p) => p.products), total: pages.at(-1)?.total ?? 0 };
}

/** The shortest search the server takes (feedCardsQuerySchema). */
export const CARD_SEARCH_MIN = 2;

/** GET /api/prices/feeds/{id}/cards?q=: the printings of the feed's last run whose name holds `q` (at most 50). */
export function searchFeedCards(feedId: number, q: string, signal?: AbortSignal): Promise<FeedCard[]> {
  return apiFetch<FeedCard[]>(`/api/prices/feeds/${feedId}/cards?${new URLSearchParams({ q })}`, { signal });
}

export function useFeedCards(feedId: number, q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: priceKeys.feedCards(feedId, text),
    queryFn: ({ signal }) => searchFeedCards(feedId, text, signal),
    enabled: text.length >= CARD_SEARCH_MIN,
    staleTime: 60_000,
  });
}

/** What linking a product to a printing sets: the printing's ids it has, and its finish (its other ids stay). */
export function linkBody(card: FeedCard): Partial<MarketIds> {
  const body: Partial<MarketIds> = { finish: card.finish };
  if (card.tcgplayer_product_id !== null) body.tcgplayer_product_id = card.tcgplayer_product_id;
  if (card.scryfall_id !== null) body.scryfall_id = card.scryfall_id;
  if (card.pokemontcg_id !== null) body.pokemontcg_id = card.pokemontcg_id;
  return body;
}

/** A printing has an id a product can be found by (a CSV's set + number alone has none). */
export const linkable = (card: FeedCard) => card.tcgplayer_product_id !== null || card.scryfall_id !== null || card.pokemontcg_id !== null;

/** PUT /api/products/{id}/market with the printing's ids: the product is priced from the feed's next run. */
export function useLinkProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, card }: { productId: number; card: FeedCard }) => updateProductMarket(productId, linkBody(card)),
    onSuccess: (market: ProductMarket) => queryClient.setQueryData(priceKeys.market(market.product_id), market),
  });
}
