import type { FastifyBaseLogger } from "fastify";
import { WEBHOOK_MESSAGES } from "../../../contract/webhooks.js";
import type { Db } from "../../db/client.js";
import { postWebhook } from "./webhook-sender.js";
import { webhookHeaders } from "./webhook-signature.js";
import { WebhookTargets } from "./webhook-targets.js";
import {
  anyWebhook,
  type ClaimedDelivery,
  claimDeliveries,
  DELIVERY_LOG_DAYS,
  deleteOldDeliveries,
  listWebhookRows,
  recordAttempt,
  releaseDelivery,
} from "./webhooks.repo.js";

export interface WebhookWorkerOptions {
  /** An attempt without a 2xx answer in this time has failed (10 s). */
  timeoutMs: number;
  /** Waits before the next attempt after each failure; the last one repeats (5 s, 30 s, 2 min, 10 min, 1 h, then hourly). */
  retryDelaysMs: number[];
  /** A delivery still failing this long after its change has failed; an endpoint failing this long is disabled (24 h). */
  giveUpMs: number;
  /** How often the worker looks for due deliveries without being told (retries, other processes' changes). */
  pollMs: number;
  /** Attempts under way at once in this process. */
  concurrency: number;
  /** WEBHOOK_ALLOWED_HOSTS: targets allowed although on this computer, the shop's network, ... (webhook-targets.ts). */
  allowedHosts: readonly string[];
}

/** `show_id` and `order_id` are in a quantity change's data only when it has them (the trigger writes both, null or not). */
function withoutNullTags(data: unknown): unknown {
  if (!data || typeof data !== "object") return data;
  const { show_id, order_id, ...rest } = data as Record<string, unknown>;
  return { ...rest, ...(show_id == null ? {} : { show_id }), ...(order_id == null ? {} : { order_id }) };
}

/** How often a process trims the delivery log (webhooks.repo.ts deleteOldDeliveries), and how many rows a statement deletes. */
const TRIM_EVERY_MS = 3_600_000;
const TRIM_ROWS = 1_000;

/** Between two looks for deliveries when changes come in fast: a burst of taps costs a few claims, not one each. */
const MIN_CLAIM_GAP_MS = 20;

/**
 * Sends the outbox (`webhook_deliveries`, filled in the changes' own transactions by migration
 * 0012's triggers) after the commit, off the request: `nudge()` after a commit in this process
 * (every `inventory_update`), a poll for the rest. Each attempt is claimed with FOR UPDATE SKIP
 * LOCKED and a lease (webhooks.repo.ts claimDeliveries), so several processes share the work and
 * never make the same attempt twice; a process that stops gives its claimed deliveries back.
 */
export class WebhookWorker {
  private readonly inFlight = new Map<number, AbortController>();
  private readonly sends = new Set<Promise<void>>();
  private pollTimer: NodeJS.Timeout | undefined;
  private claimTimer: NodeJS.Timeout | undefined;
  private claiming = false;
  private claimAgain = false;
  private lastClaimAt = 0;
  private started = false;
  private closed = false;
  private polling: Promise<void> | undefined;
  private claimRun: Promise<void> | undefined;
  /** False once a poll found no webhook at all: changes then cost nothing here until one is made. */
  private hasWebhooks = true;
  /** The log is trimmed hourly, the first time an hour after start-up (not in a start's busy first minutes). */
  private trimmedAt = Date.now();
  /** Where webhooks may point: checked when one is saved (webhooks.service.ts) and on every attempt. */
  readonly targets: WebhookTargets;
  private targetsChecked = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.targets = new WebhookTargets(options.allowedHosts);
  }

  get leaseMs(): number {
    return this.options.timeoutMs + 5_000;
  }

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    // The first look a poll's interval after start-up: the catalogue and the first requests go
    // first (a commit here nudges it sooner once a webhook exists).
    this.pollTimer = setTimeout(() => {
      this.polling = this.poll();
    }, this.options.pollMs);
  }

  /** Something committed (or a webhook was made): look for deliveries soon. `force` after a webhook change here. */
  nudge(force = false): void {
    if (!this.started || this.closed) return;
    if (force) this.hasWebhooks = true;
    if (!this.hasWebhooks) return;
    this.scheduleClaim();
  }

  /** Stops: no new attempts; attempts under way are cancelled and given back untried. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.claimTimer);
    for (const controller of this.inFlight.values()) controller.abort();
    // A look or a claim under way holds a connection: the database closes after them.
    await Promise.allSettled([this.polling, this.claimRun, ...this.sends]);
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    try {
      this.hasWebhooks = await anyWebhook(this.db);
      if (this.hasWebhooks && !this.targetsChecked) await this.warnOfRefusedTargets();
      if (this.hasWebhooks) await this.claim();
      if (Date.now() - this.trimmedAt >= TRIM_EVERY_MS) {
        this.trimmedAt = Date.now();
        await this.trimLog();
      }
    } catch (err) {
      this.log.warn({ err }, "webhook worker: looking for deliveries failed");
    }
    if (!this.closed) {
      this.pollTimer = setTimeout(() => {
        this.polling = this.poll();
      }, this.options.pollMs);
    }
  }

  /**
   * Once a start: says in the server's log which webhooks point where they may not (saved before
   * the targets were checked, or WEBHOOK_ALLOWED_HOSTS changed), so whoever runs the server knows
   * why their attempts fail with `address not allowed` and which setting allows them.
   */
  private async warnOfRefusedTargets(): Promise<void> {
    this.targetsChecked = true;
    for (const webhook of await listWebhookRows(this.db)) {
      const problem = this.targets.urlProblem(webhook.url);
      if (problem) this.log.warn({ webhook: webhook.id, url: webhook.url }, `webhook ${webhook.id}'s deliveries fail: ${problem}`);
    }
  }

  /** A thousand rows a statement, each its own short transaction, so requests go between them. */
  async trimLog(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const n = await deleteOldDeliveries(this.db, DELIVERY_LOG_DAYS, TRIM_ROWS);
      deleted += n;
      if (n < TRIM_ROWS || this.closed) return deleted;
    }
  }

  private scheduleClaim(): void {
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.claimTimer) return;
    const wait = Math.max(0, this.lastClaimAt + MIN_CLAIM_GAP_MS - Date.now());
    this.claimTimer = setTimeout(() => {
      this.claimTimer = undefined;
      this.claimRun = this.claim().catch((err) => this.log.warn({ err }, "webhook worker: claiming deliveries failed"));
    }, wait);
  }

  private async claim(): Promise<void> {
    if (this.claiming || this.closed) return;
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return;
    this.claiming = true;
    this.claimAgain = false;
    this.lastClaimAt = Date.now();
    try {
      const claimed = await claimDeliveries(this.db, free, this.leaseMs);
      for (const delivery of claimed) this.send(delivery);
      // All it asked for: there may be more.
      if (claimed.length === free) this.claimAgain = true;
    } finally {
      this.claiming = false;
    }
    if (this.claimAgain && !this.closed) this.scheduleClaim();
  }

  private send(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    this.inFlight.set(delivery.id, controller);
    const sending = this.attempt(delivery, controller.signal)
      .catch((err) => this.log.warn({ err, delivery: delivery.id }, "webhook worker: recording an attempt failed"))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.sends.delete(sending);
        // A slot is free, and the product's next delivery may have been released.
        if (!this.closed) this.scheduleClaim();
      });
    this.sends.add(sending);
  }

  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const body = JSON.stringify({ type: delivery.type, timestamp: delivery.createdAt, data: withoutNullTags(delivery.data) });
    const headers = webhookHeaders(delivery.secret, delivery.messageId, body);
    const result = await postWebhook(delivery.url, headers, body, { timeoutMs: this.options.timeoutMs, targets: this.targets, signal });
    if (signal.aborted) {
      await releaseDelivery(this.db, delivery.id);
      return;
    }
    const delays = this.options.retryDelaysMs;
    const retryInMs = delays[Math.min(delivery.attempts, delays.length) - 1] ?? delays[delays.length - 1] ?? 3_600_000;
    await recordAttempt(this.db, delivery, {
      ...result,
      retryInMs,
      giveUpMs: this.options.giveUpMs,
      disabledReason: WEBHOOK_MESSAGES.disabledAfterFailures,
    });
  }
}
