import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { dropOtherZones, fillStockValueDays, today, withFillLock } from "./reports.repo.js";

/** How often the job looks for a day that ended without its row. */
const EVERY_MS = 60 * 60 * 1000;

/**
 * The daily stock value (stock_value_daily): at start-up, every day since the first quantity
 * audit row that has no row yet is filled in from the audit (fillStockValueDays); then, every
 * hour, a day that has ended gets its row. Idempotent and under an advisory lock, so any number
 * of server processes may run it.
 */
export class StockValueJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly tz: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
  }

  /** Fills the missing days up to yesterday; answers how many were written (0 when another process was at it). */
  runOnce(): Promise<number> {
    if (!this.running) {
      this.running = this.fill()
        .catch((err) => {
          this.log.warn({ err }, "stock value days: filling in failed; trying again within the hour");
          return 0;
        })
        .finally(() => {
          this.running = undefined;
        });
    }
    return this.running;
  }

  private async fill(): Promise<number> {
    const written = await withFillLock(this.db, async (tx) => {
      await dropOtherZones(tx, this.tz);
      const yesterday = new Date(Date.parse(`${await today(tx, this.tz)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      return fillStockValueDays(tx, { lastDay: yesterday, tz: this.tz });
    });
    if (written) this.log.info({ days: written }, "stock value days written");
    return written ?? 0;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
