import { can, type Permission } from "../contract/permissions.js";
import { forbidden } from "./app-error.js";
import type { Actor } from "./context.js";

/**
 * 403 unless the signed-in user's role has the permission (contract/permissions.ts). The one
 * check: the /api hook runs it for each route's declared permission (plugins/auth.ts), and
 * services run it again at their top as the second line.
 */
export function requirePermission(ctx: { actor: Actor }, permission: Permission): void {
  if (!can(ctx.actor.role, permission)) throw forbidden();
}
