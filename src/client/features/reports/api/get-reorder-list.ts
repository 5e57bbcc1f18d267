import { queryOptions } from "@tanstack/react-query";
import type { ReorderReport } from "../../../../contract/reports";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/reports/reorder: active products at or under their reorder point, by vendor. */
export function getReorderList(signal?: AbortSignal): Promise<ReorderReport> {
  return apiFetch<ReorderReport>("/api/reports/reorder", { signal });
}

/** Live events (a change, a product reaching its point) refetch it while it is on screen. */
export const reorderListQuery = () =>
  queryOptions({ queryKey: queryKeys.reorder, queryFn: ({ signal }) => getReorderList(signal), staleTime: 0 });
