import { roleHas, type ServerPermission } from "../contract/permissions.js";
import { roleAllowsScope, TOKEN_MESSAGES, type TokenScope } from "../contract/token-rules.js";
import { forbidden } from "./app-error.js";
import type { Actor } from "./context.js";

/** The spec's four permissions, and integrations (API tokens, webhooks, the orders list): managers and super_admin. */
export type { ServerPermission };

/**
 * The scope a token needs for a route of each permission. Users, tokens and webhooks are never
 * managed with a token (null). A route may name another scope (`config.scope`), or none.
 */
export const PERMISSION_SCOPES: Record<ServerPermission, TokenScope | null> = {
  canManageProducts: "products:write",
  canUpdateQuantity: "quantity:write",
  canViewAudit: "audit:read",
  canManageUsers: null,
  canManageIntegrations: null,
};

/**
 * The one rule (docs/decisions/0009): a user passes by their role's permission; an API token acts
 * for its maker, so it passes only when it holds the route's scope, its maker's current role
 * allows that scope (contract/token-rules.ts SCOPE_PERMISSIONS, the mapping the token list's
 * effective scopes come from), and that role has the route's permission. `permission` undefined:
 * every signed-in user's route; `scope` null: no token may call it.
 */
export function requireAccess(actor: Actor, permission: ServerPermission | undefined, scope: TokenScope | null): void {
  const token = actor.token;
  if (token) {
    if (scope === null) throw forbidden(TOKEN_MESSAGES.notForTokens);
    if (!token.scopes.includes(scope)) throw forbidden(TOKEN_MESSAGES.missingScope(scope));
    if (!roleAllowsScope(actor.role, scope)) throw forbidden(TOKEN_MESSAGES.beyondMaker(scope));
  }
  // A token's actor carries its maker's role: never more than the maker may do.
  if (permission !== undefined && !roleHas(actor.role, permission)) {
    throw token && scope !== null ? forbidden(TOKEN_MESSAGES.beyondMaker(scope)) : forbidden();
  }
}

/**
 * 403 unless the actor may (requireAccess), with the permission's scope or the one given. The /api
 * hook runs the same rule for each route's declared permission and scope (plugins/auth.ts), and
 * services run this again at their top as the second line.
 */
export function requirePermission(ctx: { actor: Actor }, permission: ServerPermission, scope = PERMISSION_SCOPES[permission]): void {
  requireAccess(ctx.actor, permission, scope);
}
