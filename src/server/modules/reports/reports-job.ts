import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { dropOtherZones, fillStockValueDays, lastClosedDay, rollUpSales, withFillLock } from "./reports.repo.js";

/** How often the job looks for a day that ended without its rows. */
const EVERY_MS = 60 * 60 * 1000;
const FIRST_RUN_AFTER_MS = 2_000;
/** A day is rolled up once it ended this long ago: a change committed later than that with an older time is not expected. */
const SETTLE_MINUTES = 60;

/**
 * The reports' daily work (docs/decisions/0011-reports-from-the-audit.md): at start-up, then
 * every hour, every day that ended gets its stock value (stock_value_daily; missing days are
 * filled in from the audit) and its sales are rolled up (sales_daily, sales_monthly). Idempotent
 * and under an advisory lock, so any number of server processes may run it.
 */
export class ReportsJob {
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;
  private running: Promise<{ stockDays: number; salesDays: number }> | undefined;
  private startupDone: () => void = () => {};
  /** Settles once the start-up run has finished (or the job was closed before it). */
  readonly startup = new Promise<void>((resolve) => {
    this.startupDone = resolve;
  });

  constructor(
    private readonly db: Db,
    private readonly tz: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The first run waits a moment after start-up, so the catalogue and the first requests go first. */
  start(firstRunAfterMs = FIRST_RUN_AFTER_MS): void {
    this.first = setTimeout(() => void this.runOnce().then(this.startupDone), firstRunAfterMs);
    this.first.unref();
    this.timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
  }

  /**
   * Writes what is missing, after any run still going; answers the days written (0 when another
   * process was at it). `rebuildSales` rolls up every day again, `salesThrough` up to that day
   * (tests and repairs).
   */
  runOnce(opts: { rebuildSales?: boolean; salesThrough?: string } = {}): Promise<{ stockDays: number; salesDays: number }> {
    const run = (this.running ?? Promise.resolve()).then(() =>
      this.work(opts).catch((err) => {
        this.log.warn({ err }, "reports: filling in the days that ended failed; trying again within the hour");
        return { stockDays: 0, salesDays: 0 };
      }),
    );
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return run;
  }

  private async work(opts: { rebuildSales?: boolean; salesThrough?: string }) {
    const done = await withFillLock(this.db, async (tx) => {
      await dropOtherZones(tx, this.tz);
      const closed = await lastClosedDay(tx, this.tz, SETTLE_MINUTES);
      const stockDays = await fillStockValueDays(tx, { lastDay: closed.yesterday, tz: this.tz });
      const salesDays = await rollUpSales(tx, { through: opts.salesThrough ?? closed.settled, tz: this.tz, rebuild: opts.rebuildSales });
      return { stockDays, salesDays };
    });
    if (done && (done.stockDays || done.salesDays)) this.log.info(done, "reports: days written");
    return done ?? { stockDays: 0, salesDays: 0 };
  }

  async close(): Promise<void> {
    clearTimeout(this.first);
    clearInterval(this.timer);
    this.startupDone();
    await this.running;
  }
}
