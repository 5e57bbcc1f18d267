import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { apiTokens } from "../../db/schema.js";

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** A new token, unless its name (case-insensitive) was ever used: then nothing. */
export async function insertApiToken(
  db: Db,
  values: { name: string; tokenHash: string; prefix: string; scopes: string[]; createdBy: number; createdByName: string },
): Promise<ApiTokenRow | undefined> {
  const [row] = await db.insert(apiTokens).values(values).onConflictDoNothing().returning();
  return row;
}

/** Every token, revoked ones too, newest first. */
export async function listApiTokens(db: Db): Promise<ApiTokenRow[]> {
  return db.select().from(apiTokens).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** The live (not revoked) token with this secret's hash. */
export async function findLiveApiToken(db: Db, tokenHash: string): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .limit(1);
  return row;
}

/** Revokes a live token: its row, or nothing when it is unknown or revoked already. */
export async function revokeApiToken(db: Db, id: number): Promise<ApiTokenRow | undefined> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return row;
}

export async function findApiToken(db: Db, id: number): Promise<ApiTokenRow | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
  return row;
}

export async function touchApiToken(db: Db, id: number): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, id));
}
