import { useCallback, useDeferredValue, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { Product } from "../../../../contract/products";
import { type ProductStore, useCatalogue } from "../../products";
import { type FilterOptions, hasActiveFilters, type InventoryFilters } from "../filters";
import { RowIndex, type RowSort } from "../row-index";

const NONE: ReadonlySet<number> = new Set();
const EMPTY = new Int32Array(0);
const NO_OPTIONS: FilterOptions = { vendors: [], years: [], locations: [] };

/**
 * The inventory's rows (row-index.ts) for the filters and sort shown. Typing stays instant: each
 * keystroke only filters an order made once per sort on keys made once per product, in the
 * keystroke's own render (until those keys are made, the filters are deferred). Live changes patch
 * the rows (a product that stays where it is re-renders only its own row). A performance mark is
 * left after each filtered render, a measure for each filtering.
 */
export function useInventoryRows(filters: InventoryFilters, sort: RowSort | null, kept: ReadonlySet<number> = NONE) {
  const catalogue = useCatalogue();
  const { store } = catalogue;
  const [index] = useState(() => new RowIndex(store));
  useEffect(() => index.connect(), [index]);
  const version = useSyncExternalStore(index.subscribe, index.getVersion);
  // The filters the rows follow. Once the search keys are made, a keystroke filters in a few ms
  // and renders only the rows in view: the rows then come in the keystroke's own render and
  // frame (a deferred render comes at least a frame later, in slices). Before that (the first
  // search after a load), the search box renders first and the rows follow. Only then is there
  // a value to defer (else React would render the view again after every keystroke for nothing).
  // Reading the index here is safe: it turns cheap once the keys are made, and back only when the catalogue is loaded again.
  const cheap = index.searchIsCheap();
  const lagging = useDeferredValue(cheap ? null : filters);
  const shown = cheap || lagging === null ? filters : lagging;
  // The loaded catalogue's first rows (deriving them, a screenful of rows and their layout) come
  // in a deferred render: React renders it in slices and commits it in a task of its own, so the
  // load's last task is not all of it at once. Meanwhile the view still says it is loading.
  const loaded = useDeferredValue(catalogue.status === "loaded");

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says the rows were patched (the index answers them).
  const rows = useMemo(() => {
    if (!loaded) return EMPTY;
    const start = performance.now();
    const out = index.select(shown, sort, kept);
    performance.measure("inventory-filter", { start, end: performance.now(), detail: { count: out.length } });
    return out;
  }, [index, loaded, shown, sort, kept, version]);
  // The filter choices, worked out when the filter panel asks (a pass over the whole catalogue); a new function when they may have changed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above.
  const options = useCallback((): FilterOptions => (loaded ? index.options() : NO_OPTIONS), [index, loaded, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above (the catalogue's size).
  const total = useMemo(() => (loaded ? index.size() : 0), [index, loaded, version]);

  // The search keys while the browser is idle, so the first keystroke finds them ready.
  // biome-ignore lint/correctness/useExhaustiveDependencies: again after each change of the rows.
  useEffect(() => {
    if (!loaded) return;
    let cancelled = false;
    let handle = 0;
    const idle = typeof window.requestIdleCallback === "function";
    const work = (deadline?: IdleDeadline) => {
      if (cancelled) return;
      const until = performance.now() + 8;
      const done = index.fillKeys(() => (deadline ? deadline.timeRemaining() > 1 : performance.now() < until));
      if (!done) schedule();
    };
    const schedule = () => {
      handle = idle ? window.requestIdleCallback(work) : window.setTimeout(work, 50);
    };
    schedule();
    return () => {
      cancelled = true;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, [index, loaded, version]);

  useEffect(() => {
    performance.mark("inventory-filtered", { detail: { searchText: shown.searchText, count: rows.length } });
  }, [rows, shown]);

  const pending = catalogue.pending || (catalogue.status === "loaded" && !loaded);
  const first = useFirstPage(store, pending, filters, sort);
  // `firstPage`: the rows are the first page's (none for other filters or another order).
  if (first) return { ...catalogue, pending, index: first.index, rows: first.rows, firstPage: true, options, total, stale: false };
  return { ...catalogue, pending, index, rows, options, total, firstPage: false, stale: shown !== filters };
}

/**
 * While the catalogue loads and its first page is there (the store's getFirstPage): that page's
 * rows, for the default filters and the catalogue's own order only (a search, a filter or a
 * column's sort over part of the catalogue would show a wrong result: no rows then, the view says
 * it is loading). Null when there is no first page.
 */
function useFirstPage(store: ProductStore, pending: boolean, filters: InventoryFilters, sort: RowSort | null) {
  // Deferred like `loaded` above: the store drops its page as it takes in the whole list, and the
  // two change in the same deferred render. Else the view would say it is loading for the render
  // in between, and take away the search box someone may be typing in.
  const page = useDeferredValue(useSyncExternalStore(store.subscribe, store.getFirstPage));
  const shown = pending && page !== null;
  // The page as catalogue slots (oldest first, as the store numbers them), each read as the store holds it now.
  const index = useMemo(() => {
    if (!shown || !page) return null;
    const n = page.length;
    const at = (slot: number) => {
      const p = page[n - 1 - slot] as Product;
      return store.get(p.id) ?? p;
    };
    return new RowIndex({ slotCount: () => n, at, subscribeCatalogue: () => () => {}, catalogueNotices: () => 0 });
  }, [store, page, shown]);
  const own = sort === null && !hasActiveFilters(filters);
  const rows = useMemo(() => (index && own ? index.select(filters, null, NONE) : EMPTY), [index, own, filters]);
  return index ? { index, rows } : null;
}
