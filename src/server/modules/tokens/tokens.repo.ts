import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Role } from "../../../contract/permissions.js";
import type { Db } from "../../db/client.js";
import { apiTokens, users } from "../../db/schema.js";

export type ApiTokenRow = typeof apiTokens.$inferSelect;
/** A token with its maker as they are now. */
export type ApiTokenWithMaker = ApiTokenRow & { maker: { username: string; role: Role; isActive: boolean } };

const maker = { username: users.username, role: users.role, isActive: users.isActive };

/** A new token, unless its name (case-insensitive) was ever used: then nothing. */
export async function insertApiToken(
  db: Db,
  values: {
    name: string;
    tokenHash: string;
    prefix: string;
    scopes: string[];
    channels: string[] | null;
    createdBy: number;
    createdByName: string;
  },
): Promise<ApiTokenRow | undefined> {
  const [row] = await db.insert(apiTokens).values(values).onConflictDoNothing().returning();
  return row;
}

/** Every token, revoked ones too, newest first, with its maker. */
export async function listApiTokens(db: Db): Promise<ApiTokenWithMaker[]> {
  return db
    .select({ token: apiTokens, maker })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .then((rows) => rows.map((r) => ({ ...r.token, maker: r.maker })));
}

/** The token with this secret's hash while it works: not revoked, its maker active; with the maker's current role. */
export async function findLiveApiToken(db: Db, tokenHash: string): Promise<(ApiTokenRow & { makerRole: Role }) | undefined> {
  const [row] = await db
    .select({ token: apiTokens, makerRole: users.role })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt), eq(users.isActive, true)))
    .limit(1);
  return row ? { ...row.token, makerRole: row.makerRole } : undefined;
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
