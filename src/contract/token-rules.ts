// API tokens: scopes, limits and messages (no zod: the client's permission checks and screens use them).

/** What a token may do; a route's permission maps to one of these (server/permissions.ts). */
export const TOKEN_SCOPES = ["products:read", "quantity:write", "products:write", "orders:write", "audit:read"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  "products:read": "Read products (list, changes since, lookup, photos)",
  "quantity:write": "Change stock",
  "products:write": "Create, edit, disable and import products",
  "orders:write": "Place, list and cancel orders",
  "audit:read": "Read audit trails",
};

/** Every secret starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_SECRET_PREFIX = "blez_";
/** The part of the secret kept and shown to tell tokens apart: `blez_` and the next 6 characters. */
export const TOKEN_PREFIX_LENGTH = TOKEN_SECRET_PREFIX.length + 6;
export const TOKEN_NAME_MAX = 100;

/** Name of the audit actor a token's changes are recorded under. */
export const tokenActorName = (name: string) => `token:${name}`;

export const TOKEN_MESSAGES = {
  nameRequired: "Token name is required",
  nameTooLong: `Token name must be at most ${TOKEN_NAME_MAX} characters`,
  scopesRequired: "Choose at least one scope",
  nameTaken: "A token with this name already exists",
  notFound: "Token not found",
  alreadyRevoked: "This token was already revoked",
  invalid: "Invalid or revoked API token",
  notForTokens: "API tokens cannot use this route",
  missingScope: (scope: TokenScope) => `This API token lacks the ${scope} scope`,
  rateLimited: "Too many requests with this API token. Please try again later.",
} as const;
