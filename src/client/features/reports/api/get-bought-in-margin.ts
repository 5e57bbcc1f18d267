import { queryOptions } from "@tanstack/react-query";
import type { BoughtInMarginReport } from "../../../../contract/counter-reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/bought-in-margin: the margin realised on cards sold that came in through trade-ins. */
export function getBoughtInMargin(q: { from: string; to: string }, signal?: AbortSignal): Promise<BoughtInMarginReport> {
  return apiFetch<BoughtInMarginReport>(`/api/reports/bought-in-margin?${new URLSearchParams(q)}`, { signal });
}

export const boughtInMarginQuery = (q: { from: string; to: string }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "bought-in-margin", q] as const, queryFn: ({ signal }) => getBoughtInMargin(q, signal) });
