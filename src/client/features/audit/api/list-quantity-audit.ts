import { queryOptions } from "@tanstack/react-query";
import type { QuantityAuditEntry } from "../../../../contract/audit";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { type AuditFilters, auditSearch } from "../audit-filters";

/** GET /api/audit/quantity, or /api/audit/quantity/{id} for one product; newest first. */
export function listQuantityAudit(filters: AuditFilters, productId?: number, signal?: AbortSignal): Promise<QuantityAuditEntry[]> {
  const path = productId === undefined ? "/api/audit/quantity" : `/api/audit/quantity/${productId}`;
  return apiFetch<QuantityAuditEntry[]>(`${path}${auditSearch(filters)}`, { signal });
}

export const quantityAuditQuery = (filters: AuditFilters, productId?: number) =>
  queryOptions({
    queryKey: [...queryKeys.audit, "quantity", productId ?? "all", filters] as const,
    queryFn: ({ signal }) => listQuantityAudit(filters, productId, signal),
    staleTime: 0,
  });
