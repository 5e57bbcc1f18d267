import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type { Product } from "../../../contract/products.js";
import type { Database } from "../../db/client.js";
import { peopleSeenWithin, yieldToPeople } from "../../db/people-first.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import type { EventBus } from "../../events.js";
import { isDatabaseUnavailable } from "../../plugins/errors.js";
import { stockChanged } from "../products/product-changes.js";
import { planBatch } from "./import.plan.js";
import { BatchRaced, type BatchWritten, writeBatch } from "./import-batch.js";
import {
  type BatchOutcome,
  claimableJobs,
  claimJob,
  failJob,
  finishJob,
  type ImportJobRow,
  recordBatch,
  releaseJob,
} from "./import-jobs.repo.js";
import { StoredImportRows } from "./import-rows.js";

export interface ImportRunnerOptions {
  /** Rows a batch writes at most. */
  maxBatchRows: number;
  /** A batch's transaction aims at this long at most: the next batch gets fewer rows when one took longer. */
  batchTargetMs: number;
  /**
   * The embedded database: the aim while bulk work has found nobody waiting for its one connection
   * for a second (peopleSeenWithin). Fewer, larger batches then: each batch has a fixed cost
   * besides its rows, which nobody waits behind while the shop is quiet.
   */
  quietBatchTargetMs?: number;
  /** How long a runner's claim lasts without a batch; then another process (or the next start) takes the import over. */
  leaseMs: number;
  /** How often to look for imports whose runner went away. */
  pollMs: number;
  /** The one server of an embedded database: imports still committing at start are this process's to resume, whatever their lease. */
  ownsAll: boolean;
}

export const IMPORT_RUNNER_DEFAULTS: Omit<ImportRunnerOptions, "ownsAll"> = {
  maxBatchRows: 1_000,
  batchTargetMs: 100,
  leaseMs: 15_000,
  pollMs: 5_000,
};

/** Bulk work that found nobody waiting for this long takes the quiet batch aim. */
const QUIET_AFTER_MS = 1_000;
/** The live event after batches, at most this often per import (clients catch up with ?since= on each). */
const EVENT_EVERY_MS = 1_000;
/** An import whose batches keep failing for another reason than an outage stops after this many tries in a row. */
const MAX_FAILURES = 3;
const IMPORT_NOTE = "CSV import";

class LeaseLost extends Error {}

/**
 * Writes committed imports (durable jobs) in short transactions: each batch moves the import's
 * cursor and writes its rows in one transaction, so a batch is written exactly once whoever runs
 * it, and an import cut off by a crash resumes at its cursor. Between batches, on the embedded
 * database (one connection for everything), the runner waits while any request is queued for the
 * connection: taps, lookups and edits go first. On PostgreSQL it uses a pool of its own.
 */
export class ImportRunner {
  readonly id = randomUUID();
  private readonly running = new Map<string, Promise<void>>();
  private poller: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
    private readonly options: ImportRunnerOptions,
  ) {}

  /** Resumes the imports cut off before this start, and keeps looking for ones whose runner went away. */
  start(): void {
    const look = () => {
      if (this.closed) return;
      void this.resumeWaiting(this.options.ownsAll && !this.poller).finally(() => {
        if (!this.closed) this.poller = setTimeout(look, this.options.pollMs);
      });
    };
    this.poller = setTimeout(look, 0);
  }

  /**
   * Runs an import in this process if no other runner holds it; resolves once this process is done
   * with it. `prepared`: its rows as this process loaded them from the chunks it stored (from
   * memory, not read back from the database), else they are loaded here.
   */
  run(id: string, force = false, prepared?: Promise<StoredImportRows>): Promise<void> {
    const existing = this.running.get(id);
    if (existing) return existing;
    const run = this.claimAndRun(id, force, prepared).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  /**
   * run() for callers that do not wait for it (a commit's answer, the resume poller): a failure to
   * start (the claim's statement refused, the database gone) is logged and the import is left for
   * the next look, never thrown past them, where nothing would catch it and the process would end.
   */
  runInBackground(id: string, force = false): void {
    this.run(id, force, undefined).catch((err) => {
      if (isDatabaseUnavailable(err)) this.log.warn({ err, importId: id }, "an import could not be started: the database is unavailable");
      else this.log.error({ err, importId: id }, "an import could not be started; it is tried again later");
    });
  }

  /** Whether this process is writing an import (the catalogue's background builds wait meanwhile). */
  get writing(): boolean {
    return this.running.size > 0;
  }

  /** Stops after the batches in flight; imports not finished are left for another process or the next start. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.poller);
    await Promise.allSettled(this.running.values());
  }

  private async resumeWaiting(force: boolean): Promise<void> {
    try {
      for (const id of await claimableJobs(this.database.bulk.db, force)) this.runInBackground(id, force);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) this.log.error({ err }, "looking for imports to resume failed");
    }
  }

  private async claimAndRun(id: string, force: boolean, prepared: Promise<StoredImportRows> | undefined): Promise<void> {
    const job = await claimJob(this.database.bulk.db, id, this.id, this.options.leaseMs, force);
    if (!job) return;
    try {
      await this.write(job, prepared);
    } catch (err) {
      if (err instanceof LeaseLost) return;
      this.log.error({ err, importId: id }, "import failed");
      await failJob(this.database.bulk.db, id, "The import stopped with an error; what it wrote so far can be undone").catch(() => {});
    } finally {
      if (this.closed) await releaseJob(this.database.bulk.db, id, this.id).catch(() => {});
    }
  }

  private async write(job: ImportJobRow, prepared: Promise<StoredImportRows> | undefined): Promise<void> {
    const who = { userId: job.userId, userName: job.userName, ipAddress: job.ipAddress, importId: job.id, note: IMPORT_NOTE };
    const event = new ThrottledEvent(this.events, job, EVENT_EVERY_MS);
    let processed = job.processed;
    // The pace is not known yet: the first batch is a small one (on the embedded database every
    // request waits for the batch in hand), then nextBatchSize.
    let size = Math.min(this.options.maxBatchRows, FIRST_BATCH_ROWS);
    /** How long the last batch took, once it succeeded: the next one's size is set after the yield, which sees who waits. */
    let took: number | undefined;
    let failures = 0;
    let lookUpAll = false;
    const stored = await (prepared ?? StoredImportRows.load(this.database, job.id, job.rows, job.firstRow));
    try {
      for (;;) {
        if (this.closed) throw new LeaseLost();
        await yieldToPeople(this.database);
        if (took !== undefined)
          size = nextBatchSize(size, took, { maxBatchRows: this.options.maxBatchRows, batchTargetMs: this.batchTargetMs() });
        took = undefined;
        const started = performance.now();
        try {
          const done = await this.batch(job, stored, processed, size, who, event, lookUpAll);
          lookUpAll = false;
          failures = 0;
          if (done === null) return;
          processed = done;
        } catch (err) {
          if (err instanceof LeaseLost) throw err;
          // A product was made meanwhile under a barcode of the batch: planned again, every row looked up.
          if (err instanceof BatchRaced) {
            lookUpAll = true;
            continue;
          }
          if (isDatabaseUnavailable(err)) {
            await delay(1_000);
            continue;
          }
          if (++failures >= MAX_FAILURES) throw err;
          this.log.warn({ err, importId: job.id }, "import batch failed; trying again");
          await delay(200 * failures);
          continue;
        }
        took = performance.now() - started;
      }
    } finally {
      event.flush();
    }
  }

  /** What the next batch aims at: the quiet aim while nobody has waited for the embedded database's connection for a second. */
  private batchTargetMs(): number {
    const quiet = this.options.quietBatchTargetMs;
    return quiet === undefined || peopleSeenWithin(this.database, QUIET_AFTER_MS) ? this.options.batchTargetMs : quiet;
  }

  /**
   * One transaction: up to `size` rows of one chunk written and, in the same statement, the cursor
   * moved from `from` with the batch's counts and errors (nothing written when another runner got
   * there first); the last batch also marks the import done. A batch that looks no product up (new
   * barcodes only) is that one statement, committed on its own: no BEGIN and COMMIT round trips,
   * which a large new price list would otherwise pay at every batch. Answers the new cursor, or
   * null once the import is done.
   */
  private async batch(
    job: ImportJobRow,
    stored: StoredImportRows,
    from: number,
    size: number,
    who: Parameters<typeof writeBatch>[1],
    event: ThrottledEvent,
    lookUpAll: boolean,
  ): Promise<number | null> {
    // Read before the transaction: stored rows never change once the import is committed.
    const { to, checks } = await stored.slice(from, size);
    const last = to >= job.rows;
    const plan = planBatch({
      firstRowNumber: job.firstRow + from,
      checks,
      firstRowOf: (key) => stored.firstRowOf(key),
      mayExist: lookUpAll ? undefined : (key, barcode) => stored.mayExist(key, barcode),
    });
    const record = (outcome: BatchOutcome) =>
      recordBatch(job.id, { runner: this.id, from, to, leaseMs: this.options.leaseMs, last }, outcome);
    const accept = (written: BatchWritten, afterCommit: AfterCommit) => {
      if (!written.moved) throw new LeaseLost();
      if (written.revision !== null) {
        const { revision, reached } = written;
        const count = written.created + written.updated;
        afterCommit(() => event.add(count, revision, reached));
      }
    };
    if (!last && plan.lookUp.length === 0) {
      accept(await writeBatch(this.database.bulk.db, who, plan, record), (fn) => fn());
      return to;
    }
    return withTransaction(this.database.bulk.db, async (tx, afterCommit) => {
      accept(await writeBatch(tx, who, plan, record), afterCommit);
      if (!last) return to;
      await finishJob(tx, job.id);
      return null;
    });
  }
}

/** Below this a batch is mostly its fixed statements: a slow machine gets batches of this size, not smaller. */
const MIN_BATCH_ROWS = 50;
/** An import's first batch (and a resumed one's): 1.5x more each batch while they stay quick. */
const FIRST_BATCH_ROWS = 150;

/**
 * The rows that fit 80% of the target at the last batch's pace, at most 1.5 times as many as it
 * had (one quick batch may be a lucky one). It grows after every quick batch: growing only after
 * one under half the target left the size wherever it had last shrunk to.
 */
export function nextBatchSize(size: number, tookMs: number, options: Pick<ImportRunnerOptions, "maxBatchRows" | "batchTargetMs">): number {
  const fits = Math.floor((size * options.batchTargetMs * 0.8) / Math.max(tookMs, 1));
  return Math.min(options.maxBatchRows, Math.max(MIN_BATCH_ROWS, Math.min(fits, Math.ceil(size * 1.5))));
}

/**
 * An import's batches told to stockChanged at most every `everyMs`: their count, the latest
 * revision (one `products_imported` event: screens catch up with ?since=) and the products that
 * reached their reorder point (a low-stock toast each, with the event that shows their new stock).
 */
class ThrottledEvent {
  private count = 0;
  private revision = 0;
  private reached: Product[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventBus,
    private readonly job: ImportJobRow,
    private readonly everyMs: number,
  ) {}

  add(count: number, revision: number, reached: Product[]): void {
    this.count += count;
    this.revision = Math.max(this.revision, revision);
    this.reached.push(...reached);
    this.timer ??= setTimeout(() => this.flush(), this.everyMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count === 0) return;
    const author = { events: this.events, actor: { id: this.job.userId ?? 0, username: this.job.userName } };
    stockChanged(author, { type: "products_imported", count: this.count, revision: this.revision, reached: this.reached });
    this.count = 0;
    this.reached = [];
  }
}
