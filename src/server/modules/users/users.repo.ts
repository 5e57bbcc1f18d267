import { asc, eq, sql } from "drizzle-orm";
import type { Role } from "../../../contract/permissions.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema.js";

export type UserRow = typeof users.$inferSelect;

/** The largest id a PostgreSQL `integer` holds; larger ids cannot exist. */
export const MAX_USER_ID = 2_147_483_647;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  if (id > MAX_USER_ID) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Usernames are unique case-insensitively (the lower(username) index). */
export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
  return row;
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  return db.select().from(users).orderBy(asc(users.id));
}

export async function anyUserExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

/** Inserts a user unless the name is taken (case-insensitively); undefined when it was. */
export async function insertUserIfFree(
  db: Db,
  values: { username: string; passwordHash: string; role: Role },
): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

export async function setUserActive(db: Db, id: number, isActive: boolean): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ isActive, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row;
}

export async function setUserPassword(db: Db, id: number, passwordHash: string): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row;
}

/** Locks the user's row for the rest of the transaction. */
export async function lockUserById(db: Db, id: number): Promise<UserRow | undefined> {
  if (id > MAX_USER_ID) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, id)).for("update").limit(1);
  return row;
}
