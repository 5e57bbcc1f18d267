import { z } from "zod";
import type { AuthErrorReason } from "../../../contract/events.js";
import type { Config } from "../../config.js";
import type { Actor } from "../../context.js";
import type { Db } from "../../db/client.js";
import type { EventBus } from "../../events.js";
import { type EndedSessions, SessionCache } from "./session-cache.js";
import {
  deleteExpiredSessions,
  deleteSessionByToken,
  findLiveSession,
  findSessionById,
  insertSession,
  insertSocketToken,
  liveSessionDeadlines,
  takeSocketToken,
  touchSession,
} from "./sessions.repo.js";
import { hashToken, TOKEN_MAX_LENGTH } from "./tokens.js";

export type EndReason = "logout" | "expired" | "account_disabled" | "password_reset";
/** Sessions that ended, and why: every process drops them from its cache and closes their sockets. */
export interface SessionsEnded extends EndedSessions {
  reason: EndReason;
}

/** A signed-in request's session. */
export interface ResolvedSession {
  id: number;
  actor: Actor;
  /** The deadline slid: the cookie's lifetime should slide with it. */
  slid: boolean;
}

/** A socket's session, once its token was accepted. */
export interface SocketSession {
  id: number;
  actor: Actor;
  expiresAt: Date;
}

/** What the realtime layer does with ended sessions (sessions/session-sockets.ts). */
export interface SessionSocketsHooks {
  /** Close this process's sockets of the ended sessions. */
  closeLocal(ended: SessionsEnded): void;
  /** Tell the other server processes (they call `ended(..., false)`). */
  tellOthers(ended: SessionsEnded): void;
  /** A session's deadline moved (sliding expiry), as this process knows it. */
  deadlineMoved(id: number, expiresAt: Date): void;
}

/** Expired sessions are deleted on roughly one sign-in in this many. */
const CLEANUP_ONE_IN = 50;
/** Write the sliding expiry at most this often per session, not on every request (sooner for tiny TTLs). */
const TOUCH_EVERY_MS = 60_000;

const authenticatePayload = z.object({ token: z.string().min(1).max(TOKEN_MAX_LENGTH) });

/**
 * The one owner of sessions: opening and ending them, resolving a cookie's token (through a
 * short in-process cache of validated sessions, with sliding expiry), socket tokens bound to the
 * session that fetched them, and revocation: an ended session leaves every process's cache at
 * once and its sockets are closed (the realtime layer attaches how, see session-sockets.ts).
 */
export class Sessions {
  private readonly cache: SessionCache;
  private hooks: SessionSocketsHooks | null = null;
  private readonly endedListeners: Array<(ended: SessionsEnded) => void> = [];
  readonly ttlMs: number;
  private readonly touchEveryMs: number;

  constructor(
    private readonly db: Db,
    config: Pick<Config, "SESSION_TTL_HOURS" | "SESSION_CACHE_MS">,
    events: EventBus,
  ) {
    this.ttlMs = config.SESSION_TTL_HOURS * 3_600_000;
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, this.ttlMs / 4);
    this.cache = new SessionCache(config.SESSION_CACHE_MS);
    // Disabling a user or resetting a password deletes their sessions in its own transaction and
    // says so after the commit.
    events.on("user_revoked", ({ userId, reason }) => this.ended({ userId, reason }, true));
  }

  attachSockets(hooks: SessionSocketsHooks | null): void {
    this.hooks = hooks;
  }

  /** Hears every end of sessions in this process, whichever process ended them (API tokens drop a disabled maker's). */
  onEnded(listener: (ended: SessionsEnded) => void): void {
    this.endedListeners.push(listener);
  }

  /** A new session for the user: its cookie token. */
  async open(userId: number): Promise<string> {
    const { token } = await insertSession(this.db, userId, this.ttlMs);
    if (Math.random() * CLEANUP_ONE_IN < 1) await deleteExpiredSessions(this.db);
    return token;
  }

  /** The live session a cookie's token names, or null (unknown, ended, expired, user disabled). */
  async resolve(token: string): Promise<ResolvedSession | null> {
    return this.resolveCached(token) ?? this.resolveFromDatabase(token);
  }

  /**
   * `resolve` without a promise when it needs no statement (the session cached, its deadline not
   * due to slide): the answer, null for a token that cannot be one, else undefined (ask `resolve`).
   * Most API requests end here: the auth hook answers them in the same turn (bench/hot-paths).
   */
  resolveCached(token: string): ResolvedSession | null | undefined {
    if (token.length > TOKEN_MAX_LENGTH) return null;
    const session = this.cache.get(hashToken(token));
    if (!session || Date.now() - session.touchedAt > this.touchEveryMs) return undefined;
    return { id: session.id, actor: session.actor, slid: false };
  }

  private async resolveFromDatabase(token: string): Promise<ResolvedSession | null> {
    const hash = hashToken(token);
    const now = Date.now();
    let session = this.cache.get(hash, now);
    if (!session) {
      const generation = this.cache.current;
      const row = await findLiveSession(this.db, hash);
      if (!row) return null;
      session = {
        id: row.id,
        actor: { id: row.userId, username: row.username, role: row.role },
        expiresAt: row.expiresAt.getTime(),
        touchedAt: row.lastSeenAt.getTime(),
        cachedAt: now,
      };
      this.cache.set(hash, session, generation);
    }
    if (now - session.touchedAt <= this.touchEveryMs) return { id: session.id, actor: session.actor, slid: false };
    const expiresAt = await touchSession(this.db, session.id, this.ttlMs);
    if (!expiresAt) {
      this.cache.forget({ sessionIds: [session.id] });
      return null;
    }
    session.touchedAt = now;
    session.expiresAt = expiresAt.getTime();
    this.hooks?.deadlineMoved(session.id, expiresAt);
    return { id: session.id, actor: session.actor, slid: true };
  }

  /** Sign-out: ends the session the token names, if any, with its sockets and unused socket tokens. */
  async end(token: string | undefined): Promise<void> {
    if (!token || token.length > TOKEN_MAX_LENGTH) return;
    const id = await deleteSessionByToken(this.db, token);
    if (id !== undefined) this.ended({ sessionIds: [id], reason: "logout" }, true);
  }

  /**
   * Sessions ended: forget them at once and close their sockets in this process; `tellOthers`
   * when the other processes cannot know by themselves (sign-out, disable, password reset; not
   * expiry, which every process notices on its own, nor a message from another process).
   */
  ended(ended: SessionsEnded, tellOthers: boolean): void {
    this.cache.forget(ended);
    for (const listener of this.endedListeners) listener(ended);
    this.hooks?.closeLocal(ended);
    if (tellOthers) this.hooks?.tellOthers(ended);
  }

  /** Of these sessions, the ones still live, with their current deadline. */
  liveDeadlines(ids: number[]): Promise<Map<number, Date>> {
    return liveSessionDeadlines(this.db, ids);
  }

  /** A single-use token (60 s) the signed-in client trades for an authenticated socket. */
  issueSocketToken(sessionId: number): Promise<string> {
    return insertSocketToken(this.db, sessionId);
  }

  /** Trades an `authenticate` payload (anything a client sent) for the token's session, or the reason it is refused. */
  async authenticateSocket(payload: unknown): Promise<SocketSession | { reason: AuthErrorReason }> {
    const parsed = authenticatePayload.safeParse(payload);
    if (!parsed.success) return { reason: "invalid_token" };
    const generation = this.cache.current;
    const taken = await takeSocketToken(this.db, parsed.data.token);
    if (!taken) return { reason: "invalid_token" };
    if (taken.expiresAt.getTime() < Date.now()) return { reason: "expired_token" };
    let session = await findSessionById(this.db, taken.sessionId);
    // Sessions ended while this was read: read again, so a socket never outlives its session's end.
    if (session && this.cache.current !== generation) session = await findSessionById(this.db, taken.sessionId);
    if (!session || session.expiresAt.getTime() <= Date.now()) return { reason: "invalid_token" };
    if (!session.isActive) return { reason: "account_disabled" };
    return {
      id: session.id,
      actor: { id: session.userId, username: session.username, role: session.role },
      expiresAt: session.expiresAt,
    };
  }
}
