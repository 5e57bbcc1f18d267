import { queryOptions } from "@tanstack/react-query";
import type { ProductAuditEntry } from "../../../../contract/audit";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { type AuditFilters, auditSearch } from "../audit-filters";

/** GET /api/audit/products, or /api/audit/product/{id} for one product; newest first. */
export function listProductAudit(filters: AuditFilters, productId?: number, signal?: AbortSignal): Promise<ProductAuditEntry[]> {
  const path = productId === undefined ? "/api/audit/products" : `/api/audit/product/${productId}`;
  return apiFetch<ProductAuditEntry[]>(`${path}${auditSearch(filters)}`, { signal });
}

export const productAuditQuery = (filters: AuditFilters, productId?: number) =>
  queryOptions({
    queryKey: [...queryKeys.audit, "products", productId ?? "all", filters] as const,
    queryFn: ({ signal }) => listProductAudit(filters, productId, signal),
    staleTime: 0,
  });
