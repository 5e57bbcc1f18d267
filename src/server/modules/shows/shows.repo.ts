import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { quantityAudit, shows } from "../../db/schema.js";
import type { ShowChange } from "./shows.tally.js";

export type ShowRow = typeof shows.$inferSelect;

/** Starts a show, unless the user already runs one (one running show per user): then nothing. */
export async function insertShow(db: Db, values: { name: string; userId: number; userName: string }): Promise<ShowRow | undefined> {
  const [row] = await db
    .insert(shows)
    .values({ name: values.name, startedBy: values.userId, startedByName: values.userName })
    .onConflictDoNothing({ target: shows.startedBy, where: sql`${shows.endedAt} is null` })
    .returning();
  return row;
}

export async function findShow(db: Db, id: number): Promise<ShowRow | undefined> {
  const [row] = await db.select().from(shows).where(eq(shows.id, id)).limit(1);
  return row;
}

/** The show the user is running, if any. */
export async function findRunningShow(db: Db, userId: number): Promise<ShowRow | undefined> {
  const [row] = await db
    .select()
    .from(shows)
    .where(and(eq(shows.startedBy, userId), isNull(shows.endedAt)))
    .limit(1);
  return row;
}

/** Ends a running show; nothing when it had ended already. */
export async function endShowRow(db: Db, id: number, endedByName: string): Promise<ShowRow | undefined> {
  const [row] = await db
    .update(shows)
    .set({ endedAt: sql`now()`, endedByName })
    .where(and(eq(shows.id, id), isNull(shows.endedAt)))
    .returning();
  return row;
}

/** Shows newest first: everyone's, or one user's. */
export async function listShowRows(db: Db, opts: { userId?: number; limit: number; offset: number }): Promise<ShowRow[]> {
  const where: SQL | undefined = opts.userId === undefined ? undefined : eq(shows.startedBy, opts.userId);
  return db.select().from(shows).where(where).orderBy(desc(shows.startedAt), desc(shows.id)).limit(opts.limit).offset(opts.offset);
}

/** The quantity changes tagged with these shows, in the order they were made. */
export async function showChanges(db: Db, showIds: number[]): Promise<Map<number, ShowChange[]>> {
  const byShow = new Map<number, ShowChange[]>(showIds.map((id) => [id, []]));
  if (showIds.length === 0) return byShow;
  const rows = await db
    .select({
      showId: quantityAudit.showId,
      productId: quantityAudit.productId,
      productName: quantityAudit.productName,
      barcode: quantityAudit.barcode,
      change: quantityAudit.quantityChange,
      notes: quantityAudit.notes,
      at: quantityAudit.timestamp,
      unitPrice: quantityAudit.unitPrice,
    })
    .from(quantityAudit)
    .where(inArray(quantityAudit.showId, showIds))
    .orderBy(asc(quantityAudit.id));
  for (const { showId, ...change } of rows) if (showId !== null) byShow.get(showId)?.push(change);
  return byShow;
}
