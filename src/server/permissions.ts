import { can, canManageIntegrations, type Permission } from "../contract/permissions.js";
import { TOKEN_MESSAGES, type TokenScope } from "../contract/token-rules.js";
import { forbidden } from "./app-error.js";
import type { Actor } from "./context.js";

/** The spec's four permissions, and integrations (API tokens, webhooks, the orders list): managers and super_admin. */
export type ServerPermission = Permission | "canManageIntegrations";

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

function roleMay(actor: Actor, permission: ServerPermission): boolean {
  return permission === "canManageIntegrations" ? canManageIntegrations(actor.role) : can(actor.role, permission);
}

/** 403 unless an API token's scopes hold `scope` (null: tokens may not do this at all). */
export function requireScope(actor: Actor, scope: TokenScope | null): void {
  const token = actor.token;
  if (!token) return;
  if (scope === null) throw forbidden(TOKEN_MESSAGES.notForTokens);
  if (!token.scopes.includes(scope)) throw forbidden(TOKEN_MESSAGES.missingScope(scope));
}

/**
 * 403 unless the actor may: a signed-in user by their role's permission (contract/permissions.ts),
 * an API token by its scopes (the permission's scope, or the one given). The one check: the /api
 * hook runs it for each route's declared permission (plugins/auth.ts), and services run it again
 * at their top as the second line. A token's actor never passes by role.
 */
export function requirePermission(ctx: { actor: Actor }, permission: ServerPermission, scope = PERMISSION_SCOPES[permission]): void {
  if (ctx.actor.token) requireScope(ctx.actor, scope);
  else if (!roleMay(ctx.actor, permission)) throw forbidden();
}
