import { useCallback, useEffect, useMemo, useState } from "react";
import type { Product } from "../../../../contract/products";
import { useProductStore, useProductsByBarcode } from "../../products";
import { loadStreamerState, pushRecent, removeRecent, saveStreamerState } from "../recents";

/**
 * The current product and the recent list: barcodes here, products in the product store. The
 * streamer knows only these products: it looks them up by barcode, never downloads the list.
 */
export function useStreamerProducts(userId: number) {
  const store = useProductStore();
  const [state, setState] = useState(() => loadStreamerState(userId));
  const { current, recents } = state;
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => saveStreamerState(userId, state), [userId, state]);

  const watched = useMemo(() => (current === null ? recents : [current, ...recents.filter((b) => b !== current)]), [current, recents]);
  const copies = useProductsByBarcode(watched);
  const productOf = (barcode: string) => copies[watched.indexOf(barcode)] ?? null;
  const currentProduct = current === null ? null : productOf(current);

  // After a reconnect or an import the store re-looks up exactly these.
  useEffect(() => store.setWatched(watched), [store, watched]);

  // Barcodes kept from before a reload: look them up once.
  useEffect(() => {
    for (const barcode of watched) {
      if (store.getByBarcode(barcode) || failed.has(barcode)) continue;
      store.lookup(barcode).then(
        (found) => found || setFailed((s) => new Set(s).add(barcode)),
        () => setFailed((s) => new Set(s).add(barcode)),
      );
    }
  }, [store, watched, failed]);

  /** A scanned active product becomes current and goes to the top of the recent list. */
  const select = useCallback(
    (product: Product) => {
      store.put(product);
      setState((s) => ({ current: product.barcode, recents: pushRecent(s.recents, product.barcode) }));
    },
    [store],
  );

  const makeCurrent = useCallback((barcode: string) => setState((s) => ({ ...s, current: barcode })), []);

  const remove = useCallback(
    (barcode: string) =>
      setState((s) => ({ current: s.current === barcode ? null : s.current, recents: removeRecent(s.recents, barcode) })),
    [],
  );

  const recentProducts = recents
    .map((barcode) => ({ barcode, product: productOf(barcode) }))
    .filter((r): r is { barcode: string; product: Product } => r.product !== null && r.product.is_active !== false);

  return {
    current,
    currentProduct,
    currentLoading: current !== null && currentProduct === null && !failed.has(current),
    recentProducts,
    select,
    makeCurrent,
    remove,
    /** The freshest copy from the server (before trusting a recent entry). */
    refresh: store.lookup,
  };
}
