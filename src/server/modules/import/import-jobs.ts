import { randomUUID } from "node:crypto";
import { IMPORT_JOB_MAX_ROWS, type ImportJob, type ImportResult, type ImportRowInput } from "../../../contract/import.js";
import { badRequest, conflict, notFound } from "../../app-error.js";

/** A staged import not committed within this long is dropped (its rows were never written). */
export const IMPORT_JOB_TTL_MS = 30 * 60_000;
/** Staged imports one user may hold at once. */
export const IMPORT_JOBS_PER_USER = 3;

interface Job {
  id: string;
  userId: number;
  status: ImportJob["status"];
  /** Parts by index: a part sent again (a retried call) replaces itself. */
  parts: Map<number, ImportRowInput[]>;
  received: number;
  result?: ImportResult;
  error?: string;
  touched: number;
}

/**
 * Imports too large for one call: the parts are staged here, then imported together by one
 * import (one transaction: all rows or none) that runs after the commit call has answered, so
 * every call stays well within the client's 10 s. Kept in this server process: a client sends
 * all of one import's calls to the same server (see the report's note for several processes).
 */
export class ImportJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly now: () => number = Date.now) {}

  create(userId: number): ImportJob {
    this.prune();
    const open = [...this.jobs.values()].filter((j) => j.userId === userId && (j.status === "staging" || j.status === "committing"));
    if (open.length >= IMPORT_JOBS_PER_USER) throw conflict("Too many imports in progress: finish or wait for one first");
    const job: Job = { id: randomUUID(), userId, status: "staging", parts: new Map(), received: 0, touched: this.now() };
    this.jobs.set(job.id, job);
    return view(job);
  }

  get(id: string, userId: number): ImportJob {
    return view(this.find(id, userId));
  }

  addPart(id: string, userId: number, part: number, rows: ImportRowInput[]): ImportJob {
    const job = this.find(id, userId);
    if (job.status !== "staging") throw conflict("This import is already committed");
    const received = job.received - (job.parts.get(part)?.length ?? 0) + rows.length;
    if (received > IMPORT_JOB_MAX_ROWS) throw badRequest(`At most ${IMPORT_JOB_MAX_ROWS} rows per import`);
    job.parts.set(part, rows);
    job.received = received;
    job.touched = this.now();
    return view(job);
  }

  /** Starts the import of every staged row, in part order; answers at once. `run` does the one-transaction import. */
  commit(id: string, userId: number, run: (rows: ImportRowInput[]) => Promise<ImportResult>): ImportJob {
    const job = this.find(id, userId);
    if (job.status !== "staging") throw conflict("This import is already committed");
    const parts = [...job.parts.keys()].sort((a, b) => a - b);
    if (parts.some((p, i) => p !== i)) throw badRequest(`Part ${parts.findIndex((p, i) => p !== i)} is missing`);
    const rows = parts.flatMap((p) => job.parts.get(p) ?? []);
    job.status = "committing";
    job.parts.clear();
    job.touched = this.now();
    run(rows).then(
      (result) => Object.assign(job, { status: "done", result, touched: this.now() }),
      (err: unknown) =>
        Object.assign(job, { status: "failed", error: err instanceof Error ? err.message : "Import failed", touched: this.now() }),
    );
    return view(job);
  }

  private find(id: string, userId: number): Job {
    const job = this.jobs.get(id);
    // Another user's import is not theirs to see: the same 404 as an unknown one.
    if (!job || job.userId !== userId) throw notFound("Import not found");
    return job;
  }

  private prune(): void {
    const cutoff = this.now() - IMPORT_JOB_TTL_MS;
    for (const [id, job] of this.jobs) if (job.status !== "committing" && job.touched < cutoff) this.jobs.delete(id);
  }
}

function view(job: Job): ImportJob {
  return {
    id: job.id,
    status: job.status,
    received: job.received,
    ...(job.result ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
  };
}
