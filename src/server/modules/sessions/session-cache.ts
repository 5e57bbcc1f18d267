import type { Actor } from "../../context.js";

/** A session as the cache holds it: validated against the database at `cachedAt`. */
export interface CachedSession {
  id: number;
  actor: Actor;
  /** Deadline (ms since epoch) as last read or written by this process; the database's is never earlier. */
  expiresAt: number;
  /** Last sliding-expiry write (ms since epoch). */
  touchedAt: number;
  cachedAt: number;
}

/** Which sessions ended: some by id, or every session of a user. */
export interface EndedSessions {
  sessionIds?: number[];
  userId?: number;
}

/**
 * Validated sessions of this process for a few seconds, by token hash, so most API requests need
 * no session query. An entry is never used past its session's deadline, and `forget` drops
 * ended sessions at once; a lookup that started before a `forget` does not fill the cache (it may
 * have read the session just before it ended).
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, now = Date.now()): CachedSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.cachedAt < this.ttlMs && now < entry.expiresAt) return entry;
    this.entries.delete(tokenHash);
    return undefined;
  }

  /** Pass to `set` the value read before the database lookup began. */
  get current(): number {
    return this.generation;
  }

  set(tokenHash: string, entry: CachedSession, lookupStartedAt: number): void {
    if (this.ttlMs <= 0 || lookupStartedAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, entry);
  }

  forget(ended: EndedSessions): void {
    this.generation += 1;
    const ids = new Set(ended.sessionIds ?? []);
    for (const [hash, entry] of this.entries) {
      if (ids.has(entry.id) || entry.actor.id === ended.userId) this.entries.delete(hash);
    }
  }
}
