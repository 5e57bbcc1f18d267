import type { Product, ProductsSince } from "../../../../contract/products";

export interface CatchUpHooks {
  /** Whether the store holds the whole catalogue (a catch-up by revision), else only some products. */
  wholeCatalogue(): boolean;
  since(revision: number): Promise<ProductsSince>;
  /** The products changed since the watermark. */
  took(products: readonly Product[]): void;
  /** A screen with only some products looks them up again. */
  lookUpAgain(): Promise<void>;
}

/**
 * Catching up after missed events (a reconnect, an import): `since` the watermark (the revision
 * the catalogue is complete up to) when the whole catalogue is loaded, else the watched products
 * looked up again. One run at a time; triggers during a run, or during a list load, schedule
 * exactly one more.
 */
export class CatchUp {
  private watermark: number | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** A catch-up was asked for before (the live connection is up): changes may predate a list loaded now. */
  private live = false;

  constructor(private readonly hooks: CatchUpHooks) {}

  /** A catch-up is asked for: the live connection is up. */
  markLive(): void {
    this.live = true;
  }

  isLive(): boolean {
    return this.live;
  }

  /** The catalogue was loaded complete up to `revision`. */
  startFrom(revision: number | null): void {
    this.watermark = revision;
  }

  /** The catalogue already holds the changes up to `revision`. */
  covers(revision: number | undefined): boolean {
    return revision !== undefined && this.watermark !== null && revision <= this.watermark;
  }

  /** Catch up now, or once the running catch-up ends. */
  run(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runAll().finally(() => {
      this.running = null;
    });
  }

  /** Catch up once the list being loaded is the catalogue (`dueAfterLoad`). */
  afterLoad(): void {
    this.again = true;
  }

  /**
   * A list was loaded: a catch-up is due when one was asked for during the load, or when the tab
   * was live before it began (the list may be a shared snapshot a little behind).
   */
  dueAfterLoad(liveBeforeLoad: boolean): boolean {
    if (!this.again && !liveBeforeLoad) return false;
    this.again = false;
    return true;
  }

  /** Resolves when no catch-up is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async runAll(): Promise<void> {
    do {
      this.again = false;
      try {
        if (this.hooks.wholeCatalogue()) await this.sinceWatermark();
        else await this.hooks.lookUpAgain();
      } catch {
        // The next reconnect or import tries again.
      }
    } while (this.again);
  }

  private async sinceWatermark(): Promise<void> {
    if (this.watermark === null) return;
    const { revision, products } = await this.hooks.since(this.watermark);
    this.hooks.took(products);
    this.watermark = Math.max(this.watermark, revision);
  }
}
