import { PHOTO_MESSAGES } from "../../../contract/photos.js";
import { AppError } from "../../app-error.js";

/**
 * Takes turns for the work of one process on photos: at most `slots` pictures decoded at once
 * (sharp runs in libuv's thread pool, which serving files and hashing passwords also need), the
 * others wait in arrival order. `enter` bounds the uploads that may hold a place at all (reading
 * their body, waiting or being processed) to `slots + maxWaiting`, so uploads cannot pile up in
 * memory; one more is refused at once with 503 and Retry-After.
 */
export class PhotoQueue {
  private running = 0;
  private inside = 0;
  private readonly waiting: Array<() => void> = [];
  /** What `run` saw, for the tests and the logs: pieces of work started, and the most at one moment running and waiting. */
  readonly seen = { started: 0, peakRunning: 0, peakWaiting: 0 };

  constructor(
    readonly slots: number,
    readonly maxWaiting: number,
  ) {}

  /** Takes a place for one upload, before its body is read; the answer gives it back (call it once, when the upload is done). */
  enter(): () => void {
    if (this.inside >= this.slots + this.maxWaiting) {
      throw new AppError(503, PHOTO_MESSAGES.busy, undefined, { "retry-after": "5" });
    }
    this.inside += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inside -= 1;
    };
  }

  /** Runs `work` once a slot is free (first come, first served). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      await new Promise<void>((turn) => {
        this.waiting.push(turn);
        this.seen.peakWaiting = Math.max(this.seen.peakWaiting, this.waiting.length);
      });
    } else {
      this.running += 1;
    }
    // Here this piece of work holds a slot (a finishing one handed it over without freeing it).
    this.seen.started += 1;
    this.seen.peakRunning = Math.max(this.seen.peakRunning, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  /** Starts the peaks again (a test measures one burst). */
  resetPeaks(): void {
    this.seen.peakRunning = this.running;
    this.seen.peakWaiting = this.waiting.length;
  }
}
