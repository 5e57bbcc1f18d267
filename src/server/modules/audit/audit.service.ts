import type { AuditQuery, AuditUser, ProductAuditEntry, QuantityAuditEntry } from "../../../contract/audit.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import { type AuditFilter, listAuditUsers, listProductAudit, listQuantityAudit } from "./audit.repo.js";

function toFilter(query: AuditQuery, productId?: number): AuditFilter {
  return {
    productId,
    userId: query.user_id,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
    limit: query.limit,
    offset: query.offset,
    showId: query.show_id,
  };
}

/** Product audit entries (all, or of one product), newest first. */
export async function getProductAudit(ctx: ServiceContext, query: AuditQuery, productId?: number): Promise<ProductAuditEntry[]> {
  requirePermission(ctx, "canViewAudit");
  return listProductAudit(ctx.db, toFilter(query, productId));
}

/** Quantity audit entries (all, or of one product), newest first. */
export async function getQuantityAudit(ctx: ServiceContext, query: AuditQuery, productId?: number): Promise<QuantityAuditEntry[]> {
  requirePermission(ctx, "canViewAudit");
  return listQuantityAudit(ctx.db, toFilter(query, productId));
}

/** The accounts the audit view can filter by. */
export async function getAuditUsers(ctx: ServiceContext): Promise<AuditUser[]> {
  requirePermission(ctx, "canViewAudit");
  return listAuditUsers(ctx.db);
}
