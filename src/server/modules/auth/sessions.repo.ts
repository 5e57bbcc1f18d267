import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { sessions, socketTokens, users } from "../../db/schema.js";

/** A new opaque token; only its hash is ever stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function insertSession(db: Db, userId: number, ttlMs: number): Promise<string> {
  const { token, hash } = newToken();
  await db.insert(sessions).values({ tokenHash: hash, userId, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** The live session's user, or undefined (unknown, expired, or the user is disabled). */
export async function findSessionUser(db: Db, token: string) {
  const [row] = await db
    .select({
      tokenHash: sessions.tokenHash,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      username: users.username,
      role: users.role,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date()), eq(users.isActive, true)))
    .limit(1);
  return row;
}

/** Sliding expiry: push the deadline out again. */
export async function touchSession(db: Db, tokenHash: string, ttlMs: number): Promise<void> {
  const now = new Date();
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + ttlMs) })
    .where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Ends every session of the user, and any socket token they have not traded in yet. */
export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(socketTokens).where(eq(socketTokens.userId, userId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
