import { Cron } from "croner";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.js";
import type { WebhookTargets } from "../webhooks/webhook-targets.js";
import { fetchFeed } from "./price-fetch.js";
import { runFeed } from "./price-runs.js";
import { claimDueFeeds } from "./prices.repo.js";

const FIRST_LOOK_AFTER_MS = 2_000;

export interface ScheduleOptions {
  /** When feeds with a URL are fetched each day, "HH:MM" in the shop's TIMEZONE. */
  at: string;
  timezone: string;
  currency: string;
}

/**
 * The daily fetch of every feed with a URL, from PRICE_FEEDS_AT in TIMEZONE: croner looks every
 * hour at that minute (in the shop's time zone, clock changes included) and at start-up, so a day
 * whose hour passed while the server was down is fetched when it is back. Each feed is claimed for the day by one statement before it is
 * fetched, so of several server processes one fetches it, once.
 */
export class PriceFeedSchedule {
  private job: Cron | undefined;
  private first: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly targets: WebhookTargets,
    private readonly log: FastifyBaseLogger,
    private readonly options: ScheduleOptions,
  ) {}

  /** The first look waits a moment after start-up, as the reports' job does: the first requests go first. */
  start(firstLookAfterMs = FIRST_LOOK_AFTER_MS): void {
    const minute = Number(this.options.at.split(":")[1]);
    this.job = new Cron(`${minute} * * * *`, { timezone: this.options.timezone, catch: true }, () => void this.runDue());
    this.first = setTimeout(() => void this.runDue(), firstLookAfterMs);
    this.first.unref();
  }

  /** Fetches each feed due today whose hour has passed; resolves when done. */
  runDue(): Promise<void> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async work(): Promise<void> {
    const db = this.database.bulk.db;
    try {
      const due = await claimDueFeeds(db, this.options.at, this.options.timezone);
      for (const feed of due) {
        try {
          const input = await fetchFeed(this.targets, feed);
          const outcome = await runFeed(this.database, {
            feed,
            trigger: "schedule",
            startedBy: null,
            input,
            currency: this.options.currency,
            timezone: this.options.timezone,
          });
          this.log.info({ feed: feed.id, run: outcome.id, status: outcome.status, matched: outcome.matched }, "prices: feed fetched");
        } catch (err) {
          this.log.warn({ err, feed: feed.id }, "prices: the daily fetch of a feed failed; it is tried again tomorrow, or run it by hand");
        }
      }
    } catch (err) {
      this.log.warn({ err }, "prices: looking for feeds to fetch failed; trying again at the next hour");
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.first);
    this.job?.stop();
    await this.running;
  }
}
