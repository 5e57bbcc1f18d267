import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { Product } from "../../../../contract/products";
import { queryKeys } from "../../../lib/query-client";
import { lookupBarcode } from "../../scanner/api/lookup-barcode";
import { loadStreamerState, pushRecent, removeRecent, saveStreamerState } from "../recents";

const productQuery = (barcode: string) => ({
  queryKey: queryKeys.productByBarcode(barcode),
  queryFn: ({ signal }: { signal: AbortSignal }) => lookupBarcode(barcode, signal),
  staleTime: 30_000,
});

/** The current product and the recent list (barcodes; products come from the query cache). */
export function useStreamerProducts(userId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState(() => loadStreamerState(userId));
  const { current, recents } = state;

  useEffect(() => saveStreamerState(userId, state), [userId, state]);

  const currentQuery = useQuery({ ...productQuery(current ?? ""), enabled: current !== null });
  const recentQueries = useQueries({ queries: recents.map((b) => productQuery(b)) });

  /** A scanned active product becomes current and goes to the top of the recent list. */
  const select = useCallback(
    (product: Product) => {
      queryClient.setQueryData(queryKeys.productByBarcode(product.barcode), product);
      setState((s) => ({ current: product.barcode, recents: pushRecent(s.recents, product.barcode) }));
    },
    [queryClient],
  );

  const makeCurrent = useCallback((barcode: string) => setState((s) => ({ ...s, current: barcode })), []);

  const remove = useCallback(
    (barcode: string) =>
      setState((s) => ({ current: s.current === barcode ? null : s.current, recents: removeRecent(s.recents, barcode) })),
    [],
  );

  /** The freshest copy from the server (used before trusting a cached recent entry). */
  const refresh = useCallback((barcode: string) => queryClient.fetchQuery({ ...productQuery(barcode), staleTime: 0 }), [queryClient]);

  const recentProducts = recents
    .map((barcode, i) => ({ barcode, product: recentQueries[i]?.data ?? null }))
    .filter((r): r is { barcode: string; product: Product } => r.product !== null && r.product.is_active !== false);

  return {
    current,
    currentProduct: currentQuery.data ?? null,
    currentLoading: current !== null && currentQuery.isPending,
    recentProducts,
    select,
    makeCurrent,
    remove,
    refresh,
  };
}
