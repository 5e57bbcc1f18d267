import { type DBSchema, openDB } from "idb";
import type { Product } from "../../../../contract/products";
import { memoryStorage, type OfflineStorage, type QueuedTap } from "./offline-storage";

interface OfflineDb extends DBSchema {
  taps: { key: string; value: QueuedTap; indexes: { user: number } };
  products: { key: number; value: { userId: number; products: Product[] } };
}

const DB_NAME = "blez-offline";

/**
 * The offline storage in IndexedDB (one database per origin: taps by key with an index per user,
 * and per user the products the streamer screen shows). Falls back to memory where IndexedDB
 * cannot be opened (private windows of some browsers): taps then survive until a reload only.
 */
export async function openOfflineStorage(): Promise<OfflineStorage> {
  try {
    const db = await openDB<OfflineDb>(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore("taps", { keyPath: "key" }).createIndex("user", "userId");
        database.createObjectStore("products", { keyPath: "userId" });
      },
    });
    return {
      loadTaps: async (userId) => (await db.getAllFromIndex("taps", "user", userId)).sort((a, b) => a.seq - b.seq),
      putTap: async (tap) => {
        await db.put("taps", tap);
      },
      deleteTap: async (key) => {
        await db.delete("taps", key);
      },
      loadProducts: async (userId) => (await db.get("products", userId))?.products ?? [],
      saveProducts: async (userId, products) => {
        await db.put("products", { userId, products });
      },
    };
  } catch (err) {
    console.error("Offline storage unavailable: taps made offline last until a reload", err);
    return memoryStorage();
  }
}
