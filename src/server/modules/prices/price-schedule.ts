import { Cron } from "croner";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Database } from "../../db/client.js";
import type { EventBus } from "../../events.js";
import type { ImportRunner } from "../import/import-runner.js";
import type { WebhookTargets } from "../webhooks/webhook-targets.js";
import { fetchFeed } from "./price-fetch.js";
import { runFeed } from "./price-runs.js";
import { claimDueFeeds } from "./prices.repo.js";
import { autoApplyScheduled } from "./prices.service.js";

const FIRST_LOOK_AFTER_MS = 2_000;

/** What auto-apply after a run needs: its changes are an import, written by the runner, announced on the bus. */
export interface AutoApplyDeps {
  runner: ImportRunner;
  events: EventBus;
  config: Config;
}

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
 * fetched, so of several server processes one fetches it, once. After a run, auto-apply (when the
 * shop turned it on) accepts the small moves as the manager who saved the rules (autoApplyScheduled).
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
    private readonly apply: AutoApplyDeps,
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
          if (outcome.status === "done") await this.autoApply(outcome.id);
        } catch (err) {
          this.log.warn({ err, feed: feed.id }, "prices: the daily fetch of a feed failed; it is tried again tomorrow, or run it by hand");
        }
      }
    } catch (err) {
      this.log.warn({ err }, "prices: looking for feeds to fetch failed; trying again at the next hour");
    }
  }

  /** Auto-apply after the run; a failure is logged, and the proposals stay for review. */
  private async autoApply(runId: number): Promise<void> {
    try {
      const base = { db: this.database.db, events: this.apply.events, config: this.apply.config, ip: "" };
      const done = await autoApplyScheduled(base, { database: this.database, runner: this.apply.runner }, runId);
      if (done.kind === "applied") this.log.info({ run: runId, import: done.import_id, accepted: done.accepted }, "prices: auto-applied");
      if (done.kind === "left") this.log.warn({ run: runId, reason: done.reason }, "prices: auto-apply left the proposals for review");
    } catch (err) {
      this.log.warn({ err, run: runId }, "prices: auto-apply failed; the proposals stay for review");
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.first);
    this.job?.stop();
    await this.running;
  }
}
