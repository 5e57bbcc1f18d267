import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ScanAnswer, StockTake } from "../../../contract/stock-takes";
import { queryKeys } from "../../lib/query-client";
import { subscribeStockTakeUpdates } from "../../lib/stock-take-updates";
import { countedQuery, reviewQuery, stockTakeQuery, stockTakesQuery } from "./api/stock-takes";
import { type Counted, newerStockTake, withAnswers } from "./counted";

/**
 * Scans answered (here, or heard live from any device): the running totals and the session's scan
 * count take them, no request. `stockTake` is the session as read after them.
 */
export function applyScans(queryClient: QueryClient, stockTake: StockTake, answers: ScanAnswer[]): void {
  const id = stockTake.id;
  queryClient.setQueryData<StockTake>(stockTakeQuery(id).queryKey, (old) => (old ? newerStockTake(old, stockTake) : old));
  queryClient.setQueryData<StockTake[]>(stockTakesQuery.queryKey, (old) =>
    old?.map((t) => (t.id === id ? newerStockTake(t, stockTake) : t)),
  );
  const counted = countedQuery(id).queryKey;
  if (queryClient.getQueryData(counted))
    queryClient.setQueryData<Counted>(counted, (old) => old && withAnswers(old, answers, stockTake.scans));
  // Not loaded yet: a first fetch read before these scans would miss them, so it starts again.
  else void queryClient.refetchQueries({ queryKey: counted, type: "active" });
}

/**
 * While a stock take's screen is shown: each scan from any device patches the running totals and
 * the session's scan count (no request); the list and a review on screen refetch; a session
 * started, approved or cancelled, or its review changed, refetches every stock take query on screen.
 */
export function useStockTakesLive(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeStockTakeUpdates((update) => {
        if (update.type === "stock_take_scanned" && update.scans) {
          applyScans(queryClient, update.stock_take, update.scans);
          void queryClient.refetchQueries({ queryKey: reviewQuery(update.stock_take.id).queryKey, type: "active" });
        } else {
          const id = update.stock_take.id;
          queryClient.setQueryData<StockTake>(stockTakeQuery(id).queryKey, (old) => (old ? newerStockTake(old, update.stock_take) : old));
          void queryClient.refetchQueries({ queryKey: queryKeys.stockTakes, type: "active" });
        }
      }),
    [queryClient],
  );
}
