import { effectiveScopes, TOKEN_MESSAGES, type TokenScope, tokenState } from "../../../contract/token-rules.js";
import type { ApiToken, CreatedToken } from "../../../contract/tokens.js";
import { conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import type { ApiTokens } from "./api-tokens.js";
import { newTokenSecret } from "./api-tokens.js";
import { type ApiTokenRow, type ApiTokenWithMaker, findApiToken, insertApiToken, listApiTokens, revokeApiToken } from "./tokens.repo.js";

/** The largest id a PostgreSQL `integer` holds; larger ids cannot exist. */
const MAX_ID = 2_147_483_647;

/** A token as listed: its maker as they are now, and what it can do now (the rule of server/permissions.ts). */
export function toApiToken(row: ApiTokenRow, maker: ApiTokenWithMaker["maker"]): ApiToken {
  const scopes = row.scopes as TokenScope[];
  const revoked = row.revokedAt !== null;
  return {
    id: row.id,
    name: row.name,
    scopes,
    prefix: row.prefix,
    created_by: row.createdByName,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    revoked_at: row.revokedAt ? row.revokedAt.toISOString() : null,
    channels: row.channels ?? null,
    maker: { id: row.createdBy, username: maker.username, role: maker.role, is_active: maker.isActive },
    effective_scopes: revoked || !maker.isActive ? [] : effectiveScopes(scopes, maker.role),
    state: tokenState({ revoked, makerActive: maker.isActive, scopes, makerRole: maker.role }),
  };
}

/** A new token (managers and super_admin; never with a token): its secret is answered this once. */
export async function createToken(
  ctx: ServiceContext,
  input: { name: string; scopes: ApiToken["scopes"]; channels?: string[] },
): Promise<CreatedToken> {
  requirePermission(ctx, "canManageIntegrations");
  const { secret, hash, prefix } = newTokenSecret();
  const row = await insertApiToken(ctx.db, {
    name: input.name,
    tokenHash: hash,
    prefix,
    scopes: [...input.scopes],
    channels: input.channels ?? null,
    createdBy: ctx.actor.id,
    createdByName: ctx.actor.username,
  });
  if (!row) throw conflict(TOKEN_MESSAGES.nameTaken);
  // The maker is the signed-in user making it: active, with this role.
  return { token: toApiToken(row, { username: ctx.actor.username, role: ctx.actor.role, isActive: true }), secret };
}

export async function listTokens(ctx: ServiceContext): Promise<ApiToken[]> {
  requirePermission(ctx, "canManageIntegrations");
  return (await listApiTokens(ctx.db)).map((row) => toApiToken(row, row.maker));
}

/** Revokes a token: it stops working at once in this process and every other (ApiTokens.revoked). */
export async function revokeToken(ctx: ServiceContext, tokens: ApiTokens, id: number): Promise<void> {
  requirePermission(ctx, "canManageIntegrations");
  const row = id > MAX_ID ? undefined : await revokeApiToken(ctx.db, id);
  if (!row) {
    const existing = id > MAX_ID ? undefined : await findApiToken(ctx.db, id);
    if (!existing) throw notFound(TOKEN_MESSAGES.notFound);
    // Revoked already: the answer is the same, nothing more to tell.
    return;
  }
  tokens.revoked(row.id, true);
}
