import { useDeferredValue, useEffect, useMemo, useRef } from "react";
import type { Product } from "../../../../contract/products";
import { filterOptions, filterProducts, type InventoryFilters, narrows, searchKey } from "../filters";

/** Search keys per product object; a changed product is a new object, which gets its key once. */
const keys = new WeakMap<Product, string>();
function cachedKey(p: Product): string {
  let k = keys.get(p);
  if (k === undefined) {
    k = searchKey(p);
    keys.set(p, k);
  }
  return k;
}

const NONE: ReadonlySet<number> = new Set();

function sameItems(a: readonly Product[], b: readonly Product[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Filtering that keeps typing instant: the filters are deferred (React renders the input first,
 * the list after) and the result memoised. A performance mark is left after each filtered render.
 */
export function useFilteredProducts(all: readonly Product[], filters: InventoryFilters, kept: ReadonlySet<number> = NONE) {
  const deferred = useDeferredValue(filters);
  const last = useRef<{ all: readonly Product[]; filters: InventoryFilters; result: Product[] } | null>(null);
  const filtered = useMemo(() => {
    const prev = last.current;
    // Typing more narrows the previous result: search only that (same list, other filters equal).
    const source = prev && prev.all === all && narrows(prev.filters, deferred) ? prev.result : all;
    const start = performance.now();
    let result = filterProducts(source, deferred, cachedKey, kept);
    // The same products as before (e.g. a letter every product shares): keep the old array, so the views skip their work.
    if (prev && sameItems(prev.result, result)) result = prev.result;
    performance.measure("inventory-filter", { start, end: performance.now(), detail: { searched: source.length } });
    last.current = { all, filters: deferred, result };
    return result;
  }, [all, deferred, kept]);
  const options = useMemo(() => filterOptions(all), [all]);

  // Compute the search keys while the browser is idle, so the first keystroke finds them ready.
  useEffect(() => {
    let i = 0;
    let cancelled = false;
    const schedule = (fn: (deadline?: IdleDeadline) => void) =>
      typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(fn) : window.setTimeout(fn, 50);
    const work = (deadline?: IdleDeadline) => {
      if (cancelled) return;
      const until = performance.now() + 8;
      while (i < all.length && (deadline ? deadline.timeRemaining() > 1 : performance.now() < until)) {
        const p = all[i++];
        if (p) cachedKey(p);
      }
      if (i < all.length) schedule(work);
    };
    schedule(work);
    return () => {
      cancelled = true;
    };
  }, [all]);

  useEffect(() => {
    performance.mark("inventory-filtered", { detail: { searchText: deferred.searchText, count: filtered.length } });
  }, [filtered, deferred]);

  return { filtered, options, stale: deferred !== filters };
}
