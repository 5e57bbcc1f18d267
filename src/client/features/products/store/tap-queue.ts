import type { Product } from "../../../../contract/products";
import { type ApiError, normaliseError } from "../../../lib/http";
import { isOutOfReach } from "../../../lib/retry";
import type { OfflineStorage, QueuedTap } from "./offline-storage";

/** What the queue asks of its owner (the product store). */
export interface TapQueueHooks {
  /** One send of the tap (with its Idempotency-Key). */
  send(tap: QueuedTap): Promise<Product>;
  /** The server applied the tap (now or earlier: a repeat answers the first answer). */
  applied(tap: QueuedTap, product: Product): void;
  /** The server refused it (4xx, 500): it is dropped. `waited`: a caller of `add` is told too. */
  refused(tap: QueuedTap, error: ApiError, waited: boolean): void;
  /** Taps and products kept from before a reload, before any of them is sent. */
  restored(taps: QueuedTap[], products: Product[]): void;
  /** The queue or its state changed. */
  changed(): void;
}

/** Waits between sends while the server is out of reach: doubling up to the last, which repeats. */
const RETRY_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000];
/** Answers that are no refusal of the change: it goes again later (timed out; rate limited). */
const LATER = new Set([408, 429]);
/** The session ended: the app goes to the sign-in screen, and the taps wait for the same user. */
const SIGNED_OUT = 401;

/**
 * Every quantity change of this tab (a streamer's tap, an inventory card's step, an adjustment
 * or a count), in order, kept in offline storage until the server applied each once or refused
 * it. This is the one retry policy of quantity changes:
 * - no answer (network loss, a timeout) or 502/503/504 (408, 429): the tap waits, shown as
 *   pending, and goes again with its Idempotency-Key after RETRY_MS (at once on `flush`), also
 *   across a reload, so it is applied once however often it is sent;
 * - 401: the tap waits in storage, unsent, for the same user to sign in again;
 * - any other answer (4xx, 500) is the server's refusal: the tap is dropped at once and its
 *   caller gets the server's reason.
 * Taps are sent one at a time, in the order they were made.
 */
export class TapQueue {
  private queue: QueuedTap[] = [];
  private storage: OfflineStorage | null = null;
  private readonly ready: Promise<void>;
  private draining = false;
  private offline = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSeq = 0;
  private disposed = false;
  private readonly waiters = new Map<string, { resolve: (p: Product) => void; reject: (e: ApiError) => void }>();

  constructor(
    private readonly userId: number,
    storage: OfflineStorage | Promise<OfflineStorage> | undefined,
    private readonly hooks: TapQueueHooks,
  ) {
    this.ready = this.restore(storage);
  }

  /** The taps not settled yet, oldest first. */
  taps = (): readonly QueuedTap[] => this.queue;
  /** Taps of product `id` not settled yet. */
  countFor(id: number): number {
    let n = 0;
    for (const t of this.queue) if (t.productId === id) n += 1;
    return n;
  }
  /** Sum of the quantity changes of product `id` not settled yet. */
  deltaFor(id: number): number {
    let sum = 0;
    for (const t of this.queue) if (t.productId === id) sum += t.body.quantity_change;
    return sum;
  }
  /** The last send failed for want of the server (until a send gets an answer). */
  isOffline = (): boolean => this.offline;

  /** Queues a tap and sends it after the ones before it; settles when the server applied or refused it. */
  add(tap: Omit<QueuedTap, "userId" | "seq">): Promise<Product> {
    const queued: QueuedTap = { ...tap, userId: this.userId, seq: this.nextSeq() };
    this.queue.push(queued);
    const settled = new Promise<Product>((resolve, reject) => this.waiters.set(queued.key, { resolve, reject }));
    // Kept before it is sent: a reload while it is on its way sends it again (same key).
    const kept = this.ready.then(() => this.storage?.putTap(queued)).catch((err: unknown) => console.error("Failed to keep a tap", err));
    void kept.then(() => this.drain());
    return settled;
  }

  /** Its own live event settled the tap before (or instead of) its answer. */
  settledByEvent(key: string, product: Product): boolean {
    const tap = this.queue.find((t) => t.key === key);
    if (!tap) return false;
    void this.finish(tap, { product });
    return true;
  }

  /** Send now (the server may be back: a reconnect, the browser going online). */
  flush = (): void => {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.drain();
  };

  saveProducts(products: Product[]): void {
    void this.ready.then(() => this.storage?.saveProducts(this.userId, products)).catch(() => {});
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now() * 1000);
    return this.lastSeq;
  }

  private async restore(storage: OfflineStorage | Promise<OfflineStorage> | undefined): Promise<void> {
    if (!storage) return;
    try {
      this.storage = await storage;
      const [taps, products] = await Promise.all([this.storage.loadTaps(this.userId), this.storage.loadProducts(this.userId)]);
      const known = new Set(this.queue.map((t) => t.key));
      const earlier = taps.filter((t) => !known.has(t.key));
      // Taps kept from before the reload go first: they were made first.
      this.queue = [...earlier, ...this.queue].sort((a, b) => a.seq - b.seq);
      this.lastSeq = Math.max(this.lastSeq, ...taps.map((t) => t.seq));
      this.hooks.restored(earlier, products);
      if (earlier.length > 0) void this.drain();
    } catch (err) {
      console.error("Failed to read the taps kept offline", err);
    }
  }

  private async drain(): Promise<void> {
    if (this.draining || this.disposed) return;
    this.draining = true;
    try {
      await this.ready;
      while (!this.disposed) {
        const tap = this.queue[0];
        if (!tap) break;
        let product: Product;
        try {
          product = await this.hooks.send(tap);
        } catch (err) {
          const error = normaliseError(err);
          if (!this.queue.includes(tap)) continue;
          // Nothing is sent until `flush` (a reconnect, a sign-in makes a new store): apiFetch
          // has told the app the session ended.
          if (error.status === SIGNED_OUT) return;
          if (isOutOfReach(error) || error.status === null || LATER.has(error.status)) {
            this.waitForServer();
            return;
          }
          this.reachable();
          await this.finish(tap, { error });
          continue;
        }
        this.reachable();
        await this.finish(tap, { product });
      }
    } finally {
      this.draining = false;
    }
  }

  private reachable(): void {
    this.failures = 0;
    if (this.offline) {
      this.offline = false;
      this.hooks.changed();
    }
  }

  private waitForServer(): void {
    this.offline = true;
    this.hooks.changed();
    const delay = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)] as number;
    this.failures += 1;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, delay);
  }

  private async finish(tap: QueuedTap, outcome: { product: Product } | { error: ApiError }): Promise<void> {
    const at = this.queue.indexOf(tap);
    if (at < 0) return;
    this.queue.splice(at, 1);
    const waiter = this.waiters.get(tap.key);
    this.waiters.delete(tap.key);
    if ("product" in outcome) {
      this.hooks.applied(tap, outcome.product);
      waiter?.resolve(outcome.product);
    } else {
      this.hooks.refused(tap, outcome.error, waiter !== undefined);
      waiter?.reject(outcome.error);
    }
    await this.storage?.deleteTap(tap.key).catch(() => {});
  }
}
