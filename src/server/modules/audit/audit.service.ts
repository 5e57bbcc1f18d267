import type { AuditQuery, AuditUser, ProductAuditEntry, QuantityAuditEntry } from "../../../contract/audit.js";
import { can } from "../../../contract/permissions.js";
import { forbidden } from "../../app-error.js";
import type { Actor, ServiceContext } from "../../context.js";
import { type AuditFilter, listAuditUsers, listProductAudit, listQuantityAudit } from "./audit.repo.js";

/** Only roles with canViewAudit read the audit trails (403 otherwise). */
export function assertCanViewAudit(actor: Actor): void {
  if (!can(actor.role, "canViewAudit")) throw forbidden();
}

function toFilter(query: AuditQuery, productId?: number): AuditFilter {
  return {
    productId,
    userId: query.user_id,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
    limit: query.limit,
    offset: query.offset,
  };
}

/** Product audit entries (all, or of one product), newest first. */
export async function getProductAudit(ctx: ServiceContext, query: AuditQuery, productId?: number): Promise<ProductAuditEntry[]> {
  assertCanViewAudit(ctx.actor);
  return listProductAudit(ctx.db, toFilter(query, productId));
}

/** Quantity audit entries (all, or of one product), newest first. */
export async function getQuantityAudit(ctx: ServiceContext, query: AuditQuery, productId?: number): Promise<QuantityAuditEntry[]> {
  assertCanViewAudit(ctx.actor);
  return listQuantityAudit(ctx.db, toFilter(query, productId));
}

/** The accounts the audit view can filter by. */
export async function getAuditUsers(ctx: ServiceContext): Promise<AuditUser[]> {
  assertCanViewAudit(ctx.actor);
  return listAuditUsers(ctx.db);
}
