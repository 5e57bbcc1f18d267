import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { MarketQuote, MarketQuotesAnswer } from "../../contract/market-views";
import { apiFetch } from "./http";
import { queryKeys } from "./query-client";

// The market price beside a product's price where a list shows many (the inventory's rows and
// cards): asked for the products in view, never carried by the catalogue (decision 0013). In lib/,
// not a feature's index, so only the screens that show it load it (the app's first screen does not).

/**
 * Rows whose market prices are asked for together: the rows in view fall in one or two such
 * pages, so scrolling asks once per page, and a page seen again within a minute is not asked again.
 */
export const MARKET_QUOTES_PAGE = 50;

/**
 * Rows in view asked for only once they have stayed this long: a fast scroll or a word typed in
 * the search passes many pages, and only where it stops is asked (a page known already shows at once).
 */
export const QUOTES_SETTLE_MS = 250;

/** Market prices move at most daily; a page is asked again after this, on a focus of the window, or when a feed's run finishes here. */
const QUOTES_STALE_MS = 60_000;

/** GET /api/prices/market?ids=: the latest market price of each of these products that has one. */
export function getMarketQuotes(ids: readonly number[], signal?: AbortSignal): Promise<MarketQuotesAnswer> {
  return apiFetch<MarketQuotesAnswer>(`/api/prices/market?ids=${ids.join(",")}`, { signal });
}

/** A product's market price as a row shows it: the quote, `null` when it has none, `"failed"` when it could not be asked, `undefined` while it is. */
export type MarketCell = MarketQuote | null | "failed" | undefined;

/**
 * The market prices of the rows a list shows, asked for a page of ids at a time (`pages`: each
 * page's product ids, in order; see MARKET_QUOTES_PAGE). Answers a lookup by product id.
 */
export function useMarketQuotes(pages: ReadonlyArray<readonly number[]>): (productId: number) => MarketCell {
  const shown = pages.map((ids) => ids.join(",")).join("|");
  // The pages in view as they were QUOTES_SETTLE_MS ago; the first ones at once.
  const [settled, setSettled] = useState(shown);
  useEffect(() => {
    if (shown === settled) return;
    const wait = setTimeout(() => setSettled(shown), QUOTES_SETTLE_MS);
    return () => clearTimeout(wait);
  }, [shown, settled]);
  const results = useQueries({
    queries: pages.map((ids) => ({
      queryKey: [...queryKeys.marketQuotes, ids.join(",")],
      queryFn: ({ signal }: { signal: AbortSignal }) => getMarketQuotes(ids, signal),
      staleTime: QUOTES_STALE_MS,
      // Not asked before the view settles; an answer kept from before shows meanwhile.
      enabled: ids.length > 0 && shown === settled,
    })),
  });
  const queryClient = useQueryClient();
  // A new lookup only when a page or an answer changed (each answer's time tells).
  const stamp = results.map((r) => `${r.dataUpdatedAt}:${r.isError}`).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` stands for the answers
  return useMemo(() => {
    const known = new Map<number, MarketQuote | null | "failed">();
    // What other pages answered (the rows before a search narrowed them, say) shows until this page's own answer.
    for (const [key, answer] of queryClient.getQueriesData<MarketQuotesAnswer>({ queryKey: queryKeys.marketQuotes })) {
      if (!answer || typeof key[1] !== "string") continue;
      for (const id of key[1].split(",")) known.set(Number(id), null);
      for (const quote of answer.quotes) known.set(quote.product_id, quote);
    }
    pages.forEach((ids, i) => {
      const answer = results[i]?.data;
      if (!answer) {
        if (results[i]?.isError) for (const id of ids) if (!known.has(id)) known.set(id, "failed");
        return;
      }
      for (const id of ids) known.set(id, null);
      for (const quote of answer.quotes) known.set(quote.product_id, quote);
    });
    return (productId: number) => known.get(productId);
  }, [pages, stamp]);
}
