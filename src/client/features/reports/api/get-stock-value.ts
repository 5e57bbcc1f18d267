import { queryOptions } from "@tanstack/react-query";
import type { StockValueReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/stock-value: units, at price and at cost at the end of each day. */
export function getStockValue(q: { from: string; to: string }, signal?: AbortSignal): Promise<StockValueReport> {
  return apiFetch<StockValueReport>(`/api/reports/stock-value?${new URLSearchParams(q)}`, { signal });
}

export const stockValueQuery = (q: { from: string; to: string }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "stock-value", q] as const, queryFn: ({ signal }) => getStockValue(q, signal) });
