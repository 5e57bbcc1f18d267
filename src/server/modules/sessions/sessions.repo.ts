import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { SOCKET_TOKEN_TTL_MS } from "../../../contract/events.js";
import type { Role } from "../../../contract/permissions.js";
import type { Db } from "../../db/client.js";
import { sessions, socketTokens, users } from "../../db/schema.js";
import { hashToken, newToken } from "./tokens.js";

/** A live session (not expired, its user active) with its user. */
export interface SessionRow {
  id: number;
  userId: number;
  username: string;
  role: Role;
  lastSeenAt: Date;
  expiresAt: Date;
}

const live = () => and(gt(sessions.expiresAt, sql`now()`), eq(users.isActive, true));

export async function insertSession(db: Db, userId: number, ttlMs: number): Promise<{ token: string; id: number }> {
  const { token, hash } = newToken();
  const [row] = await db
    .insert(sessions)
    .values({ tokenHash: hash, userId, expiresAt: new Date(Date.now() + ttlMs) })
    .returning({ id: sessions.id });
  if (!row) throw new Error("sessions insert returned nothing");
  return { token, id: row.id };
}

export async function findLiveSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select({
      id: sessions.id,
      userId: users.id,
      username: users.username,
      role: users.role,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), live()))
    .limit(1);
  return row;
}

/** Sliding expiry: pushes the deadline out again; undefined when the session is gone. */
export async function touchSession(db: Db, id: number, ttlMs: number): Promise<Date | undefined> {
  const now = new Date();
  const [row] = await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + ttlMs) })
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
    .returning({ expiresAt: sessions.expiresAt });
  return row?.expiresAt;
}

/** Ends the session the token names (its unused socket tokens go with it); its id, if it existed. */
export async function deleteSessionByToken(db: Db, token: string): Promise<number | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .returning({ id: sessions.id });
  return row?.id;
}

/** Ends every session of the user (and their unused socket tokens). */
export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
}

/** Of these sessions, the ones still live, with their current deadline. */
export async function liveSessionDeadlines(db: Db, ids: number[]): Promise<Map<number, Date>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.id, ids), live()));
  return new Map(rows.map((r) => [r.id, r.expiresAt]));
}

/** A single-use token, valid for 60 s, bound to the session that asked for it. */
export async function insertSocketToken(db: Db, sessionId: number): Promise<string> {
  const { token, hash } = newToken();
  await db.delete(socketTokens).where(lt(socketTokens.expiresAt, sql`now()`));
  await db.insert(socketTokens).values({ tokenHash: hash, sessionId, expiresAt: new Date(Date.now() + SOCKET_TOKEN_TTL_MS) });
  return token;
}

/** Uses the token up (whatever the outcome): its session and expiry, if it existed. */
export async function takeSocketToken(db: Db, token: string): Promise<{ sessionId: number; expiresAt: Date } | undefined> {
  const [row] = await db
    .delete(socketTokens)
    .where(eq(socketTokens.tokenHash, hashToken(token)))
    .returning({ sessionId: socketTokens.sessionId, expiresAt: socketTokens.expiresAt });
  return row;
}

/** A session by id with its user, live or not (the socket's refusal reason depends on which). */
export async function findSessionById(db: Db, id: number) {
  const [row] = await db
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      username: users.username,
      role: users.role,
      isActive: users.isActive,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  return row;
}
