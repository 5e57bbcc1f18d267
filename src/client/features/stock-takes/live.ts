import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ScanAnswer, StockTake } from "../../../contract/stock-takes";
import { queryKeys } from "../../lib/query-client";
import { subscribeStockTakeUpdates } from "../../lib/stock-take-updates";
import { type CountedLine, countedQuery, reviewQuery, stockTakeQuery, stockTakesQuery } from "./api/stock-takes";

/** The running totals with a scan's answers: each answer carries what the session has counted of its product (or unknown barcode) now. */
export function withAnswers(lines: CountedLine[], answers: ScanAnswer[]): CountedLine[] {
  const next = [...lines];
  for (const a of answers) {
    const i = next.findIndex((l) =>
      a.product_id === null ? l.product_id === null && l.barcode === a.scan.barcode : l.product_id === a.product_id,
    );
    const line = { product_id: a.product_id, barcode: a.scan.barcode, name: a.product_name, counted: a.counted };
    if (i === -1) next.push(line);
    else if ((next[i]?.counted ?? 0) < a.counted) next[i] = { ...line, barcode: next[i]?.barcode ?? line.barcode };
  }
  return next;
}

/**
 * While a stock take's screen is shown: each scan from any device patches the running totals and
 * the session's scan count (no request); the list and a review on screen refetch; a session
 * started, approved or cancelled refetches every stock take query on screen.
 */
export function useStockTakesLive(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeStockTakeUpdates((update) => {
        const id = update.stock_take.id;
        queryClient.setQueryData<StockTake>(stockTakeQuery(id).queryKey, (old) => (old ? update.stock_take : old));
        queryClient.setQueryData<StockTake[]>(stockTakesQuery.queryKey, (old) => old?.map((t) => (t.id === id ? update.stock_take : t)));
        if (update.type === "stock_take_scanned" && update.scans) {
          const answers = update.scans;
          queryClient.setQueryData<CountedLine[]>(countedQuery(id).queryKey, (old) => (old ? withAnswers(old, answers) : old));
          void queryClient.refetchQueries({ queryKey: reviewQuery(id).queryKey, type: "active" });
        } else {
          void queryClient.refetchQueries({ queryKey: queryKeys.stockTakes, type: "active" });
        }
      }),
    [queryClient],
  );
}
