// API tokens: scopes, limits and messages (no zod: the client's permission checks and screens use them).
import { type Role, roleHas, type ServerPermission } from "./permissions.js";

/** What a token may do; a route's permission maps to one of these (server/permissions.ts). */
export const TOKEN_SCOPES = [
  "products:read",
  "quantity:write",
  "products:write",
  "orders:write",
  "audit:read",
  "reports:read",
  "prices:write",
  "trade_ins:write",
  "stock_takes:write",
] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  "products:read": "Read products (list, changes since, lookup, photos)",
  "quantity:write": "Change stock",
  "products:write": "Create, edit, disable and import products",
  "orders:write": "Place, list and cancel orders",
  "audit:read": "Read audit trails",
  "reports:read": "Read reports (sales, stock value, reorder list)",
  "prices:write": "Market prices: feeds, repricing rules and proposals",
  "trade_ins:write": "The counter: customers, store credit and trade-ins",
  "stock_takes:write": "Stock takes: locations, counting (a handheld scanner) and, for managers, approving",
};

/**
 * A token acts for its maker and never beyond the maker's power: each scope works only while the
 * maker's current role has this permission (null: every signed-in user's). Each permission covers
 * every route its scope opens (`orders:write` lists and cancels orders, which only managers may),
 * so the server's one check (server/permissions.ts) and the list's effective scopes agree.
 */
export const SCOPE_PERMISSIONS: Record<TokenScope, ServerPermission | null> = {
  "products:read": null,
  "quantity:write": "canUpdateQuantity",
  "products:write": "canManageProducts",
  "orders:write": "canManageIntegrations",
  "audit:read": "canViewAudit",
  "reports:read": "canViewAudit",
  "prices:write": "canManageIntegrations",
  "trade_ins:write": "canManageProducts",
  "stock_takes:write": "canManageProducts",
};

/** Whether a maker of this role may lend the scope to a token. */
export function roleAllowsScope(role: Role, scope: TokenScope): boolean {
  const permission = SCOPE_PERMISSIONS[scope];
  return permission === null || roleHas(role, permission);
}

/** The scopes a token can use while its maker has this role. */
export function effectiveScopes(scopes: readonly TokenScope[], role: Role): TokenScope[] {
  return scopes.filter((scope) => roleAllowsScope(role, scope));
}

/**
 * A token as the list shows it: working with every scope it holds, limited by its maker's role
 * (some or all of its scopes beyond it), its maker disabled, or revoked.
 */
export const TOKEN_STATES = ["active", "limited", "maker_disabled", "revoked"] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export const TOKEN_STATE_LABELS: Record<TokenState, string> = {
  active: "Active",
  limited: "Limited by maker's role",
  maker_disabled: "Maker disabled",
  revoked: "Revoked",
};

export function tokenState(token: { revoked: boolean; makerActive: boolean; scopes: readonly TokenScope[]; makerRole: Role }): TokenState {
  if (token.revoked) return "revoked";
  if (!token.makerActive) return "maker_disabled";
  return effectiveScopes(token.scopes, token.makerRole).length < token.scopes.length ? "limited" : "active";
}

/** Every secret starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_SECRET_PREFIX = "blez_";
/** The part of the secret kept and shown to tell tokens apart: `blez_` and the next 6 characters. */
export const TOKEN_PREFIX_LENGTH = TOKEN_SECRET_PREFIX.length + 6;
export const TOKEN_NAME_MAX = 100;
/** The most channels an `orders:write` token may be limited to. */
export const TOKEN_CHANNELS_MAX = 20;

/** Name of the audit actor a token's changes are recorded under. */
export const tokenActorName = (name: string) => `token:${name}`;

export const TOKEN_MESSAGES = {
  nameRequired: "Token name is required",
  nameTooLong: `Token name must be at most ${TOKEN_NAME_MAX} characters`,
  scopesRequired: "Choose at least one scope",
  channelsRequired: "Name at least one channel, or leave channels out for every channel",
  tooManyChannels: `At most ${TOKEN_CHANNELS_MAX} channels`,
  channelsNeedOrders: "Channels limit the orders:write scope: choose it, or leave channels out",
  nameTaken: "A token with this name already exists",
  notFound: "Token not found",
  alreadyRevoked: "This token was already revoked",
  invalid: "Invalid or revoked API token",
  notForTokens: "API tokens cannot use this route",
  missingScope: (scope: TokenScope) => `This API token lacks the ${scope} scope`,
  beyondMaker: (scope: TokenScope) => `This API token's ${scope} scope is beyond what its maker's role allows now`,
  rateLimited: "Too many requests with this API token. Please try again later.",
} as const;
