import { randomUUID } from "node:crypto";
import { IMPORT_JOB_MAX_ROWS, type ImportJob, type ImportResult } from "../../../contract/import.js";
import type { ImportSummary } from "../../../contract/imports.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import type { ImportBody } from "./import-body.js";
import {
  countOpenJobs,
  deletePart,
  findJob,
  type ImportJobRow,
  insertChunks,
  insertJob,
  jobErrors,
  listJobs,
  markCommitting,
  pruneStaleStaging,
  recountRows,
  stagedParts,
} from "./import-jobs.repo.js";
import { StoredImportRows } from "./import-rows.js";
import type { ImportRunner } from "./import-runner.js";

/** A staged import not committed within this long is dropped (its rows were never written). */
export const IMPORT_JOB_TTL_MS = 30 * 60_000;
/** Staged imports one user may hold at once. */
export const IMPORT_JOBS_PER_USER = 3;
/**
 * Chunks per insert statement while staging: one on the embedded database (a statement holds its
 * one connection), more on PostgreSQL (bulk work has connections of its own; fewer round trips).
 */
const CHUNKS_PER_STATEMENT = { pglite: 1, postgres: 10 } as const;
/** How often a call that waits for its import (the spec's single call) looks at it when another process writes it. */
const WAIT_POLL_MS = 250;

/** What the import services need besides the request: the database (its bulk path) and the runner. */
export interface ImportDeps {
  database: Database;
  runner: ImportRunner;
}

/**
 * Imports as durable jobs (docs/decisions/0001-imports-as-durable-jobs.md). Every import is stored with its
 * rows: the spec's single call stages its rows as one part, commits and waits for its job; a file
 * too large for one call is staged part by part (any server process takes any part), committed,
 * and its outcome read with GET. The runner writes committed imports in short transactions.
 */
export async function createImport(ctx: ServiceContext, firstRow = 2): Promise<ImportJob> {
  requirePermission(ctx, "canManageProducts");
  await pruneStaleStaging(ctx.db, IMPORT_JOB_TTL_MS);
  if ((await countOpenJobs(ctx.db, ctx.actor.id)) >= IMPORT_JOBS_PER_USER) {
    throw conflict("Too many imports in progress: finish or wait for one first");
  }
  return jobView(await newJob(ctx, firstRow));
}

function newJob(ctx: ServiceContext, firstRow: number): Promise<ImportJobRow> {
  return insertJob(ctx.db, { id: randomUUID(), userId: ctx.actor.id, userName: ctx.actor.username, ipAddress: ctx.ip, firstRow });
}

/** Stages one part (a part sent again replaces itself). */
export async function addImportPart(ctx: ServiceContext, deps: ImportDeps, id: string, part: number, body: ImportBody): Promise<ImportJob> {
  requirePermission(ctx, "canManageProducts");
  const job = await ownJob(ctx, id);
  if (job.status !== "staging") throw conflict("This import is already committed");
  if (job.rows + body.rowCount > IMPORT_JOB_MAX_ROWS) throw badRequest(`At most ${IMPORT_JOB_MAX_ROWS} rows per import`);
  await stagePart(deps.database, id, part, body);
  const received = await recountRows(ctx.db, id);
  if (received > IMPORT_JOB_MAX_ROWS) {
    await deletePart(ctx.db, id, part);
    await recountRows(ctx.db, id);
    throw badRequest(`At most ${IMPORT_JOB_MAX_ROWS} rows per import`);
  }
  return jobView({ ...job, rows: received });
}

/** Starts writing every staged row, parts in order; answers at once (the runner writes it). */
export async function commitImport(ctx: ServiceContext, deps: ImportDeps, id: string): Promise<ImportJob> {
  requirePermission(ctx, "canManageProducts");
  const job = await ownJob(ctx, id);
  if (job.status !== "staging") throw conflict("This import is already committed");
  const parts = await stagedParts(ctx.db, id);
  const gap = parts.findIndex((p, i) => p !== i);
  if (gap >= 0) throw badRequest(`Part ${gap} is missing`);
  const committed = await withTransaction(ctx.db, (tx) => markCommitting(tx, id));
  if (!committed) throw conflict("This import is already committed");
  deps.runner.runInBackground(id);
  return jobView({ ...job, status: "committing" });
}

export async function getImport(ctx: ServiceContext, id: string): Promise<ImportJob> {
  const job = await ownJob(ctx, id);
  return jobView(job, job.status === "done" ? await jobErrors(ctx.db, id) : undefined);
}

/**
 * The spec's single call: the rows as one import, written as a job, answered with its counts once
 * written. A process that stops meanwhile leaves the job to be resumed at the next start.
 */
export async function importInOneCall(ctx: ServiceContext, deps: ImportDeps, body: ImportBody): Promise<ImportResult> {
  requirePermission(ctx, "canManageProducts");
  const job = await newJob(ctx, body.firstRow ?? 2);
  // This process has the rows in memory: the runner reads them from there, not back from the
  // database, and their checks and the look for their products run while they are stored (both
  // only read; a product made meanwhile is found when its batch is written).
  const prepared = StoredImportRows.load(deps.database, job.id, body.rowCount, job.firstRow, body);
  prepared.catch(() => {}); // a failure is the runner's to report; staging may fail first
  await stagePart(deps.database, job.id, 0, body);
  await recountRows(ctx.db, job.id);
  await withTransaction(ctx.db, (tx) => markCommitting(tx, job.id));
  await deps.runner.run(job.id, false, prepared);
  let done = await findJob(ctx.db, job.id);
  // Another process took the job (its runner looked first): wait for it there.
  while (done && done.status === "committing") {
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    done = await findJob(ctx.db, job.id);
  }
  if (done?.status !== "done") throw new Error(done?.error ?? "The import could not be saved");
  return { ...counts(done), errors: await jobErrors(ctx.db, job.id), import_id: job.id };
}

export async function listImports(ctx: ServiceContext, limit: number, offset: number): Promise<ImportSummary[]> {
  requirePermission(ctx, "canManageProducts");
  return (await listJobs(ctx.db, limit, offset)).map(summaryOf);
}

async function ownJob(ctx: ServiceContext, id: string): Promise<ImportJobRow> {
  const job = await findJob(ctx.db, id);
  // Another user's staged import is not theirs to see: the same 404 as an unknown one.
  if (!job || job.userId !== ctx.actor.id) throw notFound("Import not found");
  return job;
}

/** Stores a part's chunks (JSON text, import-body.ts) on the bulk path, a few chunks per statement. */
async function stagePart(database: Database, id: string, part: number, body: ImportBody): Promise<void> {
  const db = database.bulk.db;
  await deletePart(db, id, part);
  const perStatement = CHUNKS_PER_STATEMENT[database.kind];
  for (let c = 0; c < body.chunkCount; c += perStatement) {
    await yieldToPeople(database);
    const chunks = Array.from({ length: Math.min(perStatement, body.chunkCount - c) }, (_, i) => body.chunk(c + i));
    await insertChunks(db, id, part, c, chunks);
  }
}

const counts = (job: ImportJobRow) => ({ created: job.created, updated: job.updated, skipped: job.skipped });

function jobView(job: ImportJobRow, errors?: string[]): ImportJob {
  const view: ImportJob = { id: job.id, status: job.status, received: job.rows };
  if (job.status !== "staging") view.processed = job.processed;
  if (job.status === "done") view.result = { ...counts(job), errors: errors ?? [], import_id: job.id };
  if (job.status === "failed") view.error = job.error ?? "The import could not be saved";
  return view;
}

export function summaryOf(job: ImportJobRow): ImportSummary {
  return {
    id: job.id,
    status: job.status,
    user_id: job.userId,
    user_name: job.userName,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    rows: job.rows,
    processed: job.processed,
    ...counts(job),
    error_count: job.errorCount,
    undone_at: job.undoneAt?.toISOString() ?? null,
    undone_by: job.undoneBy,
  };
}
