import { queryOptions } from "@tanstack/react-query";
import type { AuditUser } from "../../../../contract/audit";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/audit/users: id, username and role of everyone, for the user filter. */
export function listAuditUsers(signal?: AbortSignal): Promise<AuditUser[]> {
  return apiFetch<AuditUser[]>("/api/audit/users", { signal });
}

export const auditUsersQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.audit, "users"] as const,
    queryFn: ({ signal }) => listAuditUsers(signal),
  });
