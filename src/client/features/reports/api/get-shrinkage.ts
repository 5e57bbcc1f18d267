import { queryOptions } from "@tanstack/react-query";
import type { ReportBucket } from "../../../../contract/report-rules";
import type { ShrinkageAnswer } from "../../../../contract/stock-takes";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/shrinkage: the approved stock take differences per day, week or month (only periods with changes). */
export function getShrinkage(q: { from: string; to: string; by: ReportBucket }, signal?: AbortSignal): Promise<ShrinkageAnswer> {
  return apiFetch<ShrinkageAnswer>(`/api/reports/shrinkage?${new URLSearchParams(q)}`, { signal });
}

export const shrinkageQuery = (q: { from: string; to: string; by: ReportBucket }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "shrinkage", q] as const, queryFn: ({ signal }) => getShrinkage(q, signal) });
