import { queryOptions } from "@tanstack/react-query";
import type { ShowsReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/shows: shows started in a range, with units, revenue and duration. */
export function getShowsReport(q: { from: string; to: string }, signal?: AbortSignal): Promise<ShowsReport> {
  return apiFetch<ShowsReport>(`/api/reports/shows?${new URLSearchParams(q)}`, { signal });
}

export const showsReportQuery = (q: { from: string; to: string }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "shows", q] as const, queryFn: ({ signal }) => getShowsReport(q, signal) });
