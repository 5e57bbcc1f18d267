import type { Product } from "../../../../contract/products";
import { RECENT_PRODUCTS_MAX } from "../../../../contract/rules";

/** Products a partial screen re-looks up after a reconnect or an import: the current one and the recents. */
export const WATCHED_MAX = RECENT_PRODUCTS_MAX + 1;

export interface WatchedProductsHooks {
  lookup(barcode: string): Promise<Product | null>;
  /** A lookup found the product. */
  found(product: Product): void;
}

/**
 * The products a screen without the whole catalogue (the streamer's) shows, by barcode: looked
 * up by barcode (concurrent lookups of one barcode share a request), and looked up again when
 * events may have been missed.
 */
export class WatchedProducts {
  private barcodes: string[] = [];
  private readonly lookups = new Map<string, Promise<Product | null>>();

  constructor(private readonly hooks: WatchedProductsHooks) {}

  /** The barcodes shown (current + recents), at most WATCHED_MAX. */
  set(barcodes: readonly string[]): void {
    this.barcodes = [...new Set(barcodes)].slice(0, WATCHED_MAX);
  }

  list(): readonly string[] {
    return this.barcodes;
  }

  lookup(barcode: string): Promise<Product | null> {
    const running = this.lookups.get(barcode);
    if (running) return running;
    const request = this.hooks
      .lookup(barcode)
      .then((product) => {
        if (product) this.hooks.found(product);
        return product;
      })
      .finally(() => this.lookups.delete(barcode));
    this.lookups.set(barcode, request);
    return request;
  }

  /** Every watched product looked up again (a failed lookup keeps the stored copy). */
  async lookUpAgain(): Promise<void> {
    await Promise.allSettled(this.barcodes.map((barcode) => this.lookup(barcode)));
  }
}
