import { queryOptions } from "@tanstack/react-query";
import type { CreditReport } from "../../../../contract/counter-reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/credit: store credit outstanding now and the ledger's movements in the range. */
export function getCreditReport(q: { from: string; to: string }, signal?: AbortSignal): Promise<CreditReport> {
  return apiFetch<CreditReport>(`/api/reports/credit?${new URLSearchParams(q)}`, { signal });
}

export const creditReportQuery = (q: { from: string; to: string }) =>
  queryOptions({ queryKey: [...queryKeys.reports, "credit", q] as const, queryFn: ({ signal }) => getCreditReport(q, signal) });
