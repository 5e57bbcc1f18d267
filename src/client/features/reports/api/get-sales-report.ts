import { queryOptions } from "@tanstack/react-query";
import type { ReportBucket } from "../../../../contract/report-rules";
import type { SalesReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/sales: units and revenue per bucket and source, with the previous range's totals. */
export function getSalesReport(q: { from: string; to: string; by: ReportBucket }, signal?: AbortSignal): Promise<SalesReport> {
  return apiFetch<SalesReport>(`/api/reports/sales?${new URLSearchParams(q)}`, { signal });
}

export const salesReportQuery = (q: { from: string; to: string; by: ReportBucket }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "sales", q] as const, queryFn: ({ signal }) => getSalesReport(q, signal) });
