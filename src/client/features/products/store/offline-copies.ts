import type { Product } from "../../../../contract/products";

/** How long after a change the shown products are kept: one write for a burst of taps. */
const SAVE_AFTER_MS = 250;

/**
 * Keeps in offline storage, soon after a change, the products the streamer shows and those with
 * waiting taps: after a reload without the server they still show, with their taps pending.
 */
export class OfflineCopies {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** No offline storage: nothing is kept. */
    private readonly enabled: boolean,
    private readonly shown: () => Product[],
    private readonly save: (products: Product[]) => void,
  ) {}

  saveSoon(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.save(this.shown());
    }, SAVE_AFTER_MS);
  }

  /** The store's session ended: the save waiting is dropped, and none comes after (the timer stays set). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
