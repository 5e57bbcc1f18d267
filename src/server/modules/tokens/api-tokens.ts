import { createHash, randomBytes } from "node:crypto";
import type { Role } from "../../../contract/permissions.js";
import { TOKEN_PREFIX_LENGTH, TOKEN_SCOPES, TOKEN_SECRET_PREFIX, type TokenScope, tokenActorName } from "../../../contract/token-rules.js";
import type { Config } from "../../config.js";
import type { Actor } from "../../context.js";
import type { Db } from "../../db/client.js";
import { SessionCache } from "../sessions/session-cache.js";
import { TOKEN_MAX_LENGTH } from "../sessions/tokens.js";
import { findLiveApiToken, touchApiToken } from "./tokens.repo.js";

/** Write a token's last use at most this often per process, not on every request. */
const TOUCH_EVERY_MS = 60_000;
/** Random bytes of a secret (base64url after `blez_`): 256 bits. */
const SECRET_BYTES = 32;

/** A new secret: `blez_` and 32 random bytes in base64url, with its hash and the prefix shown in lists. */
export function newTokenSecret(): { secret: string; hash: string; prefix: string } {
  const secret = `${TOKEN_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, TOKEN_PREFIX_LENGTH) };
}

/**
 * SHA-256, unsalted: a secret of 256 random bits cannot be guessed from its hash, so a slow
 * password hash would only cost time on every request (docs/decisions/0009).
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * The actor a token's requests act as: its maker's id and current role (it acts for them, never
 * beyond: server/permissions.ts), `token:<name>`, its scopes and channels.
 */
function tokenActor(row: {
  id: number;
  name: string;
  scopes: string[];
  channels: string[] | null;
  createdBy: number;
  makerRole: Role;
}): Actor {
  const scopes = TOKEN_SCOPES.filter((s) => row.scopes.includes(s)) as TokenScope[];
  return {
    id: row.createdBy,
    username: tokenActorName(row.name),
    role: row.makerRole,
    token: { id: row.id, name: row.name, scopes, channels: row.channels ?? null },
  };
}

/**
 * Resolves `Authorization: Bearer` secrets to their token's actor, through the same short
 * in-process cache sessions use (SessionCache, by hash), writing `last_used_at` at most once a
 * minute per token. A token works while it is not revoked and its maker is active, with its
 * maker's current role; a cached one is read again after SESSION_CACHE_MS, as a session is (a
 * role changed in the database is seen within that). A revocation drops the token from this
 * process's cache at once and, through `tellOthers` (the socket.io adapter, as ended sessions
 * travel), from every other process's; a maker disabled drops the maker's tokens the same way, with
 * the maker's sessions (`makerChanged`, wired in plugins/auth.ts).
 */
export class ApiTokens {
  private readonly cache: SessionCache;
  private tellOthers: ((tokenId: number) => void) | null = null;

  constructor(
    private readonly db: Db,
    config: Pick<Config, "SESSION_CACHE_MS">,
  ) {
    this.cache = new SessionCache(config.SESSION_CACHE_MS);
  }

  /** How revocations reach the other server processes (the realtime plugin attaches it). */
  attachOthers(tell: ((tokenId: number) => void) | null): void {
    this.tellOthers = tell;
  }

  /** The live token's actor, or null (unknown, revoked, maker disabled, malformed). */
  async resolve(secret: string): Promise<Actor | null> {
    if (!secret.startsWith(TOKEN_SECRET_PREFIX) || secret.length > TOKEN_MAX_LENGTH) return null;
    const hash = hashSecret(secret);
    const now = Date.now();
    let entry = this.cache.get(hash, now);
    if (!entry) {
      const generation = this.cache.current;
      const row = await findLiveApiToken(this.db, hash);
      if (!row) return null;
      entry = {
        id: row.id,
        actor: tokenActor(row),
        expiresAt: Number.POSITIVE_INFINITY,
        touchedAt: row.lastUsedAt?.getTime() ?? 0,
        cachedAt: now,
      };
      this.cache.set(hash, entry, generation);
    }
    if (now - entry.touchedAt > TOUCH_EVERY_MS) {
      entry.touchedAt = now;
      await touchApiToken(this.db, entry.id);
    }
    return entry.actor;
  }

  /**
   * A user's sessions ended (disabled, or a new password; here or in another process): their tokens
   * are looked up again, so a disabled maker's stop at once.
   */
  makerChanged(userId: number): void {
    // SessionCache forgets a user's entries by their actor's id: a token's is its maker's.
    this.cache.forget({ userId });
  }

  /** A token was revoked (here, or in another process when `tellOthers` is false): it stops working at once. */
  revoked(tokenId: number, tellOthers: boolean): void {
    // SessionCache forgets entries by their id: here a token's.
    this.cache.forget({ sessionIds: [tokenId] });
    if (tellOthers) this.tellOthers?.(tokenId);
  }
}
