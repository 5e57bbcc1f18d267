import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { ImportRowInput } from "../../../contract/import.js";
import type { Db } from "../../db/client.js";
import { importChunks, importErrors, imports } from "../../db/schema.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";

/** SQL for imports as durable jobs (schema.ts `imports`): the job row, its chunks, its errors. */

export type ImportJobRow = typeof imports.$inferSelect;

export async function insertJob(
  db: Db,
  job: { id: string; userId: number; userName: string; ipAddress: string | null; firstRow: number },
): Promise<ImportJobRow> {
  const [row] = await db
    .insert(imports)
    .values({ ...job, status: "staging" })
    .returning();
  if (!row) throw new Error("import: no row inserted");
  return row;
}

export async function findJob(db: Db, id: string): Promise<ImportJobRow | undefined> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row;
}

/** Imports not yet written (staging or committing) of one user. */
export async function countOpenJobs(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(imports)
    .where(and(eq(imports.userId, userId), sql`${imports.status} in ('staging', 'committing')`));
  return Number(row?.count ?? 0);
}

/** Drops staged imports left untouched this long (their rows were never written). */
export async function pruneStaleStaging(db: Db, olderThanMs: number): Promise<void> {
  await db
    .delete(imports)
    .where(and(eq(imports.status, "staging"), sql`${imports.touchedAt} < now() - make_interval(secs => ${olderThanMs / 1000})`));
}

export async function deletePart(db: Db, id: string, part: number): Promise<void> {
  await db.delete(importChunks).where(and(eq(importChunks.importId, id), eq(importChunks.part, part)));
}

/** Stores chunks of one part (JSON arrays of rows, as text) with their row counts, numbered from `firstChunk`. */
export async function insertChunks(
  db: Db,
  id: string,
  part: number,
  firstChunk: number,
  chunks: Array<{ text: string; rowCount: number }>,
): Promise<void> {
  if (chunks.length === 0) return;
  // One text parameter per chunk, as it is: nothing to escape or parse on either side.
  const values = chunks.map((c, i) => sql`(${id}::uuid, ${part}::int, ${firstChunk + i}::int, ${c.rowCount}::int, ${c.text}::text)`);
  await db.execute(sql`insert into import_chunks (import_id, part, chunk, row_count, rows) values ${sql.join(values, sql`, `)}`);
}

/** Recounts the rows staged in every part; answers the count. */
export async function recountRows(db: Db, id: string): Promise<number> {
  const [row] = rowsOf<{ rows: number }>(
    await db.execute(sql`
      update imports set rows = (select coalesce(sum(row_count), 0)::int from import_chunks where import_id = ${id}::uuid),
        touched_at = now()
      where id = ${id}::uuid returning rows`),
  );
  return Number(row?.rows ?? 0);
}

/** The part numbers staged, in order. */
export async function stagedParts(db: Db, id: string): Promise<number[]> {
  const rows = await db.selectDistinct({ part: importChunks.part }).from(importChunks).where(eq(importChunks.importId, id));
  return rows.map((r) => r.part).sort((a, b) => a - b);
}

/**
 * Staging to committing, once: numbers every chunk's first row across the parts in order (the
 * cursor `processed` counts rows in that order). False when the import was not staging.
 */
export async function markCommitting(tx: Db, id: string): Promise<boolean> {
  const [row] = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update imports set status = 'committing', touched_at = now(), runner = null, lease_until = null
      where id = ${id}::uuid and status = 'staging' returning id`),
  );
  if (!row) return false;
  await tx.execute(sql`
    update import_chunks c set start = s.start
    from (select part, chunk, (sum(row_count) over (order by part, chunk) - row_count)::int as start
          from import_chunks where import_id = ${id}::uuid) s
    where c.import_id = ${id}::uuid and c.part = s.part and c.chunk = s.chunk`);
  return true;
}

/**
 * Takes an import to write: one that is committing and whose runner's lease ran out (or has
 * none, or is `runner` itself; `force`: whatever its lease, for a process that knows no other can
 * run, the embedded database's one server). Undefined when another runner holds it.
 */
export async function claimJob(db: Db, id: string, runner: string, leaseMs: number, force: boolean): Promise<ImportJobRow | undefined> {
  const [row] = await db
    .update(imports)
    .set({ runner, leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`, attempts: sql`${imports.attempts} + 1` })
    .where(
      and(
        eq(imports.id, id),
        eq(imports.status, "committing"),
        sql`(${imports.runner} is null or ${imports.runner} = ${runner} or ${imports.leaseUntil} < now() or ${force})`,
      ),
    )
    .returning();
  return row;
}

/** Ids of the imports waiting for a runner (committing, lease run out or none), oldest first. */
export async function claimableJobs(db: Db, force: boolean): Promise<string[]> {
  const rows = await db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.status, "committing"), sql`(${imports.leaseUntil} is null or ${imports.leaseUntil} < now() or ${force})`))
    .orderBy(imports.createdAt);
  return rows.map((r) => r.id);
}

/** The chunk holding row index `index` (rows in order across parts), with its rows. */
export async function chunkAt(
  tx: Db,
  id: string,
  index: number,
): Promise<{ start: number; rowCount: number; rows: ImportRowInput[] } | undefined> {
  const [row] = await tx
    .select({ start: importChunks.start, rowCount: importChunks.rowCount, rows: importChunks.rows })
    .from(importChunks)
    .where(and(eq(importChunks.importId, id), sql`${importChunks.start} <= ${index}`))
    .orderBy(desc(importChunks.start))
    .limit(1);
  if (!row || row.start === null) return undefined;
  return { start: row.start, rowCount: row.rowCount, rows: JSON.parse(row.rows) as ImportRowInput[] };
}

export interface BatchOutcome {
  created: number;
  updated: number;
  skipped: number;
  errors: Array<{ row: number; message: string }>;
}

/**
 * The last part of a batch's write statement (`writeProducts`' `then`): moves the cursor from
 * `from` to `to`, adds the batch's counts and renews the lease, only while `runner` holds the
 * import and the cursor is still at `from` (the CTE `moved` answers the import's row then), and
 * stores the row errors. When `moved` is empty the caller rolls back: another runner has written
 * this batch or taken the import, and each row is written once, whoever runs it.
 * `last`: the import's last batch. The others commit without waiting for their WAL to reach the
 * disk (synchronous_commit off, for this transaction only): a crash may lose the last of them,
 * cursor and rows together, and the import resumes before them and writes them again. The last
 * batch waits, and with it every batch before it (the WAL is written in order), so an import
 * answered done is on disk.
 */
export function recordBatch(
  id: string,
  batch: { runner: string; from: number; to: number; leaseMs: number; last: boolean },
  outcome: BatchOutcome,
): SQL {
  const moved = sql`
      moved as (
        update imports set processed = ${batch.to}::int, touched_at = now(),
          lease_until = now() + make_interval(secs => ${batch.leaseMs / 1000}),
          created = created + ${outcome.created}::int, updated = updated + ${outcome.updated}::int,
          skipped = skipped + ${outcome.skipped}::int, error_count = error_count + ${outcome.errors.length}::int
        where id = ${id}::uuid and runner = ${batch.runner} and processed = ${batch.from}::int and status = 'committing'
        returning id${batch.last ? sql`` : sql`, set_config('synchronous_commit', 'off', true)`}
      )`;
  if (outcome.errors.length === 0) return moved;
  // Only once the cursor moved: the errors of a batch another runner wrote are stored already
  // (their key would collide, and the statement would fail instead of answering "not moved").
  return sql`${moved},
      batch_errors as (
        insert into import_errors (import_id, row, seq, message)
        select ${id}::uuid, e.row, (row_number() over (partition by e.row order by e.ord))::int, e.message
        from json_to_recordset(${jsonReadOnce(outcome.errors.map((e, ord) => ({ ...e, ord })))}) as e(row int, message text, ord int)
        where exists (select 1 from moved)
      )`;
}

/** The import is written: done, its staged rows dropped (its errors and counts stay). */
export async function finishJob(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`
    update imports set status = 'done', finished_at = now(), runner = null, lease_until = null where id = ${id}::uuid`);
  await tx.execute(sql`delete from import_chunks where import_id = ${id}::uuid`);
}

/** Gives up on an import (what it wrote stays, and can be undone). */
export async function failJob(db: Db, id: string, error: string): Promise<void> {
  await db
    .update(imports)
    .set({ status: "failed", error, finishedAt: sql`now()`, runner: null, leaseUntil: null })
    .where(eq(imports.id, id));
}

/** Lets another runner take the import at once (this process is closing). */
export async function releaseJob(db: Db, id: string, runner: string): Promise<void> {
  await db
    .update(imports)
    .set({ leaseUntil: sql`now()` })
    .where(and(eq(imports.id, id), eq(imports.runner, runner)));
}

export async function jobErrors(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .select({ message: importErrors.message })
    .from(importErrors)
    .where(eq(importErrors.importId, id))
    .orderBy(importErrors.row, importErrors.seq);
  return rows.map((r) => r.message);
}

export async function listJobs(db: Db, limit: number, offset: number): Promise<ImportJobRow[]> {
  return db.select().from(imports).orderBy(desc(imports.createdAt), desc(imports.id)).limit(limit).offset(offset);
}

/** Marks an import undone, once; answers the row as it was before when it could be marked. */
export async function markUndone(tx: Db, id: string, by: string): Promise<ImportJobRow | undefined> {
  const [row] = await tx
    .update(imports)
    .set({ undoneAt: sql`now()`, undoneBy: by })
    .where(and(eq(imports.id, id), sql`${imports.status} in ('done', 'failed')`, sql`${imports.undoneAt} is null`))
    .returning();
  return row;
}
