import { queryOptions } from "@tanstack/react-query";
import type { SlowMoversReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/slow-movers: products with stock and no sale in 30, 60 or 90 days. */
export function getSlowMovers(days: number, signal?: AbortSignal): Promise<SlowMoversReport> {
  return apiFetch<SlowMoversReport>(`/api/reports/slow-movers?days=${days}`, { signal });
}

export const slowMoversQuery = (days: number) =>
  queryOptions({ queryKey: [...queryKeys.reports, "slow-movers", days] as const, queryFn: ({ signal }) => getSlowMovers(days, signal) });
