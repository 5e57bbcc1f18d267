import { queryOptions } from "@tanstack/react-query";
import type { TopSellersReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/top-sellers: the products that sold most units in a range. */
export function getTopSellers(q: { from: string; to: string }, signal?: AbortSignal): Promise<TopSellersReport> {
  return apiFetch<TopSellersReport>(`/api/reports/top-sellers?${new URLSearchParams({ ...q, limit: "50" })}`, { signal });
}

export const topSellersQuery = (q: { from: string; to: string }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "top-sellers", q] as const, queryFn: ({ signal }) => getTopSellers(q, signal) });
