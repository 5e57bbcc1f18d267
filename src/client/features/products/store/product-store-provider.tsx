import { createContext, type ReactNode, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Product } from "../../../../contract/products";
import { errorText, notify } from "../../notifications";
import { QUANTITY_FAILED } from "../messages";
import type { OfflineStorage } from "./offline-storage";
import { ProductStore } from "./product-store";
import { productStoreApi } from "./product-store-api";

const StoreContext = createContext<ProductStore | null>(null);

/** Opened once per page, on first use (IndexedDB and its library load with it, not with the first screen). */
let offlineStorage: Promise<OfflineStorage> | null = null;
const openStorage = () => {
  offlineStorage ??= import("./offline-storage-idb").then((m) => m.openOfflineStorage());
  return offlineStorage;
};

/**
 * One product store per signed-in session (give the provider a `key` of the user). Taps made
 * while the server is out of reach wait in IndexedDB under `userId` and are sent once it is back.
 */
export function ProductStoreProvider({ children, store, userId }: { children: ReactNode; store?: ProductStore; userId?: number }) {
  const [value] = useState(
    () =>
      store ??
      new ProductStore(productStoreApi, {
        userId,
        storage: userId === undefined ? undefined : openStorage(),
        onRefused: (_tap, error, product) => {
          const name = product ? `${product.product_name}: ` : "";
          notify.error(`${QUANTITY_FAILED}: ${name}${errorText(error)}`);
        },
      }),
  );
  useEffect(() => {
    // Back online: the taps waiting for the server go now, not at the next retry.
    window.addEventListener("online", value.flushTaps);
    return () => {
      window.removeEventListener("online", value.flushTaps);
      if (!store) value.dispose();
    };
  }, [value, store]);
  return <StoreContext.Provider value={value}>{children}</StoreContext.Provider>;
}

export function useProductStore(): ProductStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useProductStore outside ProductStoreProvider");
  return store;
}

/** The whole catalogue as an array, newest first (downloaded once, when the first screen that needs it mounts); a new array after every change: for small screens and dialogs, not for views of every product (useCatalogue). */
export function useProductList() {
  const store = useProductStore();
  useEffect(() => store.ensureList(), [store]);
  const products = useSyncExternalStore(store.subscribe, store.getList);
  const status = useSyncExternalStore(store.subscribe, store.getListStatus);
  const error = useSyncExternalStore(store.subscribe, store.getListError);
  return { products, status, error, pending: status === "idle" || status === "loading" };
}

/**
 * The catalogue's load (downloaded once, when the first screen that needs it mounts), for views
 * of the whole catalogue: they read its products from the store (`slotCount`, `at`) and follow
 * its changes with `subscribeCatalogue`, so nothing is derived again for 100,000 products
 * because one changed.
 */
export function useCatalogue() {
  const store = useProductStore();
  useEffect(() => store.ensureList(), [store]);
  const status = useSyncExternalStore(store.subscribe, store.getListStatus);
  const error = useSyncExternalStore(store.subscribe, store.getListError);
  return { store, status, error, pending: status === "idle" || status === "loading" };
}

/** The stored copy of one product (undefined while the store does not know it). */
export function useProduct(id: number): Product | undefined {
  const store = useProductStore();
  return useSyncExternalStore(store.subscribe, () => store.get(id));
}

/** This tab's quantity changes of a product still in flight (0 for none or no product). */
export function usePendingDelta(id: number | undefined): number {
  const store = useProductStore();
  return useSyncExternalStore(store.subscribe, () => (id === undefined ? 0 : store.pendingDelta(id)));
}

/** Taps of a product waiting for the server (0 for none or no product). */
export function usePendingTaps(id: number | undefined): number {
  const store = useProductStore();
  return useSyncExternalStore(store.subscribe, () => (id === undefined ? 0 : store.pendingTaps(id)));
}

/** Every tap waiting for the server, and whether the last send found no server. */
export function useWaitingTaps(): { count: number; offline: boolean } {
  const store = useProductStore();
  const count = useSyncExternalStore(store.subscribe, store.pendingTapCount);
  const offline = useSyncExternalStore(store.subscribe, store.isOffline);
  return { count, offline };
}

/** Stored products by barcode, in the order given; barcodes the store does not know are null. */
export function useProductsByBarcode(barcodes: readonly string[]): ReadonlyArray<Product | null> {
  const store = useProductStore();
  const last = useRef<ReadonlyArray<Product | null>>([]);
  return useSyncExternalStore(store.subscribe, () => {
    const next = barcodes.map((b) => store.getByBarcode(b) ?? null);
    const same = next.length === last.current.length && next.every((p, i) => p === last.current[i]);
    if (!same) last.current = next;
    return last.current;
  });
}
