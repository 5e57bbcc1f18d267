import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { loginFailures } from "../../db/schema.js";

/** Login attempts per client address and lower(username); in the database so every server process counts them. */

const since = (windowMs: number) => sql`now() - make_interval(secs => ${windowMs / 1000})`;

/** Records an attempt (as a failure until it succeeds); returns its id. */
export async function recordAttempt(db: Db, ip: string, username: string): Promise<number> {
  const [row] = await db.insert(loginFailures).values({ ip, username }).returning({ id: loginFailures.id });
  if (!row) throw new Error("login_failures insert returned nothing");
  return row.id;
}

/** Attempts of this pair within the window (the caller's own included). */
export async function countRecentFailures(db: Db, ip: string, username: string, windowMs: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), eq(loginFailures.username, username), gt(loginFailures.at, since(windowMs))));
  return Number(row?.n ?? 0);
}

export async function deleteAttempt(db: Db, id: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, id));
}

/** A successful sign-in forgets the pair's failures. */
export async function clearFailures(db: Db, ip: string, username: string): Promise<void> {
  await db.delete(loginFailures).where(and(eq(loginFailures.ip, ip), eq(loginFailures.username, username)));
}

export async function deleteOldFailures(db: Db, windowMs: number): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.at, since(windowMs)));
}
