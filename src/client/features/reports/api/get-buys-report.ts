import { queryOptions } from "@tanstack/react-query";
import type { BuysReport } from "../../../../contract/counter-reports";
import type { ReportBucket } from "../../../../contract/report-rules";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/buys: trade-ins accepted per day, week or month, with the cash and credit paid. */
export function getBuysReport(q: { from: string; to: string; by: ReportBucket }, signal?: AbortSignal): Promise<BuysReport> {
  return apiFetch<BuysReport>(`/api/reports/buys?${new URLSearchParams(q)}`, { signal });
}

export const buysReportQuery = (q: { from: string; to: string; by: ReportBucket }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "buys", q] as const, queryFn: ({ signal }) => getBuysReport(q, signal) });
