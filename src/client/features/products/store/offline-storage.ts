import type { Product, QuantityChangeBody } from "../../../../contract/products";

/** A tap waiting for the server: kept until the server applied it once or refused it. */
export interface QueuedTap {
  /** Its Idempotency-Key: every send of the tap uses it, so the server applies it once. */
  key: string;
  userId: number;
  /** Order of the taps: they are sent in this order. */
  seq: number;
  productId: number;
  body: QuantityChangeBody;
  /** When it was tapped (ISO 8601). */
  at: string;
}

/**
 * Where the product store keeps what must survive a reload while the server is out of reach:
 * the taps not sent yet, and the products the streamer screen shows. IndexedDB in the browser
 * (offline-storage-idb.ts); in memory for tests and browsers without it.
 */
export interface OfflineStorage {
  loadTaps(userId: number): Promise<QueuedTap[]>;
  putTap(tap: QueuedTap): Promise<void>;
  deleteTap(key: string): Promise<void>;
  loadProducts(userId: number): Promise<Product[]>;
  saveProducts(userId: number, products: Product[]): Promise<void>;
}

/** Storage that lasts as long as the page (tests; browsers without IndexedDB). */
export function memoryStorage(): OfflineStorage & { taps: Map<string, QueuedTap>; products: Map<number, Product[]> } {
  const taps = new Map<string, QueuedTap>();
  const products = new Map<number, Product[]>();
  return {
    taps,
    products,
    loadTaps: async (userId) => [...taps.values()].filter((t) => t.userId === userId).sort((a, b) => a.seq - b.seq),
    putTap: async (tap) => {
      taps.set(tap.key, structuredClone(tap));
    },
    deleteTap: async (key) => {
      taps.delete(key);
    },
    loadProducts: async (userId) => structuredClone(products.get(userId) ?? []),
    saveProducts: async (userId, list) => {
      products.set(userId, structuredClone(list));
    },
  };
}
