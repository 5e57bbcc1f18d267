import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { idempotencyKeys } from "../../db/schema.js";

/** Keys are honoured at least this long (API contract: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

/**
 * Claims `key` for `userId` inside the caller's transaction. Returns true when this request owns
 * the key. On PostgreSQL a concurrent request with the same key waits here on the primary key until
 * the owner commits (then gets false) or rolls back (then owns it).
 */
export async function claimIdempotencyKey(tx: Db, userId: number, key: string): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ userId, key, statusCode: 0, body: sql`'null'::jsonb` })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** The first answer stored for this user and key. */
export async function findIdempotentAnswer(db: Db, userId: number, key: string): Promise<StoredAnswer | undefined> {
  const [row] = await db
    .select({ statusCode: idempotencyKeys.statusCode, body: idempotencyKeys.body })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

/** Records the answer of the request that claimed the key (same transaction as the change). */
export async function saveIdempotentAnswer(tx: Db, userId: number, key: string, answer: StoredAnswer): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ statusCode: answer.statusCode, body: answer.body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** Forgets keys older than the retention period. */
export async function deleteExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
}
