import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./client.js";

/** How often the embedded database's tables are looked at. */
const EVERY_MS = 60_000;
/** Maintenance waits for a moment this quiet: no request for this long (a pause in the shop, not between two taps), and no query under way. */
const QUIET_MS = 10_000;

/**
 * Autovacuum's own thresholds (PostgreSQL's defaults): a table is vacuumed once its dead rows pass
 * 50 + 20% of its rows, or the rows inserted since its last vacuum 1,000 + 20% (so the visibility
 * map and the free space map follow an append-mostly table); analysed once the rows changed since
 * its last analysis pass 50 + 10%. `reltuples` is -1 for a table never vacuumed nor analysed.
 */
const DUE_TABLES = `
  select "table", vacuum_due as vacuum from (
    select s.relname as "table", s.n_dead_tup + s.n_mod_since_analyze as changed,
      (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) as vacuum_due,
      s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analysis_due
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public') t
  where vacuum_due or analysis_due
  order by changed desc`;

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL as a single user, and a single-user
 * PostgreSQL has no background workers: its `autovacuum` setting says on, but no table is ever
 * vacuumed or analysed. Without it every tap's old product row stays in the indexes, deleted rows'
 * space (expired sessions and idempotency keys, a webhook's dropped backlog) is never reused, and
 * the planner never learns the tables' sizes. So the server does autovacuum's work itself, with
 * autovacuum's thresholds, one table at a time, and only when the shop is quiet: PGlite is one
 * connection, and a tap arriving during a VACUUM waits for it (short once a table has been
 * vacuumed before: only the pages changed since are read; longest for a table's first VACUUM).
 * PostgreSQL's own autovacuum does this there: not started.
 */
export class EmbeddedMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string[]> | undefined;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    /** When the last request came in (ms since the epoch). */
    private readonly lastRequestAt: () => number,
    private readonly options: { everyMs: number; quietMs: number } = { everyMs: EVERY_MS, quietMs: QUIET_MS },
  ) {}

  start(): void {
    if (this.database.kind !== "pglite" || this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs);
    this.timer.unref();
  }

  /** Vacuums and analyses the tables that are due while the shop stays quiet; answers what it did ("VACUUM products"). */
  runOnce(): Promise<string[]> {
    if (this.running) return this.running;
    const run = this.work()
      .catch((err) => {
        this.log.warn({ err }, "embedded database maintenance failed; trying again later");
        return [];
      })
      .finally(() => {
        this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /** Nobody is waiting: no request for a while and the connection free. */
  private quiet(): boolean {
    const { pool } = this.database;
    return (
      !this.closed &&
      Date.now() - this.lastRequestAt() >= this.options.quietMs &&
      pool.waitingCount === 0 &&
      pool.totalCount === pool.idleCount
    );
  }

  private async work(): Promise<string[]> {
    if (this.database.kind !== "pglite" || !this.quiet()) return [];
    // The counts are this one session's own: flushed to the statistics when it is next idle, at
    // most once a second unless forced.
    await this.database.pool.query("select pg_stat_force_next_flush()");
    const { rows } = await this.database.pool.query<{ table: string; vacuum: boolean }>(DUE_TABLES);
    const done: string[] = [];
    for (const { table, vacuum } of rows) {
      if (!this.quiet()) break;
      // Names from the catalogue, quoted as identifiers.
      const statement = `${vacuum ? "VACUUM (ANALYZE)" : "ANALYZE"} "${table.replaceAll('"', '""')}"`;
      const started = performance.now();
      await this.database.pool.query(statement);
      this.log.debug({ ms: Math.round(performance.now() - started) }, statement);
      done.push(`${vacuum ? "VACUUM" : "ANALYZE"} ${table}`);
    }
    return done;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}
