import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "./http";

/**
 * Query keys shared between features. Products are not queries: they live in the product
 * store (features/products). Live `inventory_update` events invalidate audit; a reconnect
 * refetches the active queries.
 */
export const queryKeys = {
  me: ["auth", "me"] as const,
  permissions: ["auth", "permissions"] as const,
  audit: ["audit"] as const,
  users: ["users"] as const,
  /** Shows (streamer feature); live show_update events invalidate them. */
  shows: ["shows"] as const,
  /** API tokens (integrations feature). */
  tokens: ["tokens"] as const,
  /** Orders (orders feature); live order_update events invalidate them. */
  orders: ["orders"] as const,
  /** Reports (reports feature). */
  reports: ["reports"] as const,
  /** The "To reorder" list: live inventory and low_stock events invalidate it. */
  reorder: ["reports", "reorder"] as const,
  /** Stock takes (stock-takes feature): locations, sessions, reviews; live stock_take_update events mark them stale (the screens patch or refetch theirs). */
  stockTakes: ["stock-takes"] as const,
  /** The latest market prices of the rows a list shows (lib/market-quotes.ts); a feed's run (prices feature) invalidates them. */
  marketQuotes: ["market-quotes"] as const,
} satisfies Record<string, QueryKey | ((...args: never[]) => QueryKey)>;

/** A 401 needs nothing here: apiFetch tells the app the session ended (lib/http.ts onSessionEnded). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        // Client errors (4xx) will not change on retry; network and server errors may.
        retry: (count, error) => !(error instanceof ApiError && error.isClientError) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}
