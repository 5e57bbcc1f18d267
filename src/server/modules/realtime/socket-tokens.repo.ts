import { eq, lt } from "drizzle-orm";
import type { AuthErrorReason } from "../../../contract/events.js";
import { SOCKET_TOKEN_TTL_MS } from "../../../contract/events.js";
import type { Actor } from "../../context.js";
import type { Db } from "../../db/client.js";
import { socketTokens, users } from "../../db/schema.js";
import { hashToken, newToken } from "../auth/sessions.repo.js";

/** A single-use token, valid for 60 s, that a signed-in client trades for an authenticated socket. */
export async function issueSocketToken(db: Db, userId: number): Promise<string> {
  const { token, hash } = newToken();
  await db.delete(socketTokens).where(lt(socketTokens.expiresAt, new Date()));
  await db.insert(socketTokens).values({ tokenHash: hash, userId, expiresAt: new Date(Date.now() + SOCKET_TOKEN_TTL_MS) });
  return token;
}

/** Uses the token up (whatever the outcome) and says whose it was, or why it is refused. */
export async function consumeSocketToken(db: Db, token: string): Promise<{ actor: Actor } | { reason: AuthErrorReason }> {
  const [used] = await db
    .delete(socketTokens)
    .where(eq(socketTokens.tokenHash, hashToken(token)))
    .returning();
  if (!used) return { reason: "invalid_token" };
  if (used.expiresAt.getTime() < Date.now()) return { reason: "expired_token" };
  const [user] = await db.select().from(users).where(eq(users.id, used.userId)).limit(1);
  if (!user) return { reason: "invalid_token" };
  if (!user.isActive) return { reason: "account_disabled" };
  return { actor: { id: user.id, username: user.username, role: user.role } };
}
