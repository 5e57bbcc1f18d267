import type { Product } from "../../../contract/products";
import type { CatalogueChange, CatalogueChanges } from "../products";
import {
  type FilterOptions,
  filterOptions,
  filterTest,
  type InventoryFilters,
  narrows,
  panelFilterCount,
  searchKey,
  searchTerms,
} from "./filters";

/** What a column sorts by: text (compared lower-cased by the column's own value), a number, or null (last either way). */
export type SortValue = string | number | null;

export interface RowSort {
  id: string;
  desc: boolean;
  value: (p: Product) => SortValue;
}

/** The catalogue as the product store holds it: one copy of each product, in slots (the newest in the last). */
export interface CatalogueSlots {
  slotCount(): number;
  at(slot: number): Product;
  subscribeCatalogue(listener: (changes: CatalogueChanges) => void): () => void;
  catalogueNotices(): number;
}

const EMPTY = new Int32Array(0);
const NONE: ReadonlySet<number> = new Set();
/** More changes at once (a catch-up after an import) are cheaper to take by deriving everything again. */
const PATCH_MAX = 500;
/** Searches whose rows are kept (erasing a search finds the rows each shorter text had). */
const RECENT_MAX = 24;

/**
 * The inventory's rows: catalogue slots in the order shown (Int32Array), for the table and the
 * cards alike. Derived once per catalogue load and kept up to date by patches:
 * - each product's search key (filters.ts searchKey) is computed once, when first needed or
 *   while the browser is idle (`fillKeys`), and again only when that product changes;
 * - the catalogue is sorted once per sort (on the column's values, taken once per product), and
 *   each keystroke filters that order (or, when the search only grew, the previous rows), so
 *   typing never sorts;
 * - a changed product (a live event, a tap) that stays where it was changes nothing here (its
 *   row reads the product itself); one that moves, joins or leaves the rows is moved, added or
 *   removed by binary search, and only then do the rows change (a new array: rows are never
 *   changed in place).
 */
export class RowIndex {
  private keys: Array<string | undefined> = [];
  /** Every product's search key was computed since the last reset (a changed product's comes again when asked). */
  private keysFilled = false;
  /** Every slot, in the order of `sorted` (newest first when no column sorts). */
  private order: Int32Array | null = null;
  private sorted: RowSort | null = null;
  /** Sort values by slot, for the sorting column. */
  private values: SortValue[] | null = null;
  private filters: InventoryFilters | null = null;
  private kept: ReadonlySet<number> = NONE;
  private test: ((p: Product, slot: number) => boolean) | null = null;
  private productTest: ((p: Product, p2: Product) => boolean) | null = null;
  private rows: Int32Array = EMPTY;
  /**
   * The rows of recent searches (search box and 'Active only' alone), by searchCacheKey, for this
   * sort and these kept rows: valid while no product joins, moves, or changes its search key or
   * status (then all are dropped).
   */
  private readonly recent = new Map<string, Int32Array>();
  private optionsCache: FilterOptions | null = null;
  private version = 0;
  private patches = 0;
  /** The catalogue's notice count what is derived here is up to date with. */
  private seen = -1;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly catalogue: CatalogueSlots) {}

  // Arrow properties: React's useSyncExternalStore takes them unbound.
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** Changes when the rows (or the filter choices, or the catalogue's size) change. */
  getVersion = (): number => this.version;
  /** Changes when any product changed (what the rows are worth, for instance). */
  getPatches = (): number => this.patches;

  /** Follows the catalogue's changes (anything derived before a change it missed is derived again). Answers the stop. */
  connect(): () => void {
    const stop = this.catalogue.subscribeCatalogue((changes) => {
      if (this.apply(changes)) this.version++;
      this.seen = this.catalogue.catalogueNotices();
      this.patches++;
      for (const l of this.listeners) l();
    });
    if (this.seen !== this.catalogue.catalogueNotices()) {
      this.reset();
      this.version++;
      for (const l of this.listeners) l();
    }
    return stop;
  }

  /** The rows for these filters and this sort: worked out when they differ from the last ones, else the ones kept up to date. */
  select(filters: InventoryFilters, sort: RowSort | null, kept: ReadonlySet<number>): Int32Array {
    const resorted = this.order === null || sort?.id !== this.sorted?.id || sort?.desc !== this.sorted?.desc;
    if (resorted) this.sortAll(sort);
    if (resorted || filters !== this.filters || kept !== this.kept) {
      const prev = this.filters;
      const narrowing = !resorted && prev !== null && kept === this.kept && narrows(prev, filters);
      if (resorted || kept !== this.kept) this.recent.clear();
      this.filters = filters;
      this.kept = kept;
      this.test = filterTest<number>(filters, (slot) => this.keyAt(slot));
      this.productTest = filterTest<Product>(filters, searchKey);
      const key = searchCacheKey(filters);
      const known = key === null ? undefined : this.recent.get(key);
      this.rows = known ?? (narrowing && prev ? this.filterFrom(this.rows, prev) : this.filterFrom(this.order as Int32Array, null));
      if (key !== null) {
        this.recent.delete(key);
        this.recent.set(key, this.rows);
        if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
      }
    }
    return this.rows;
  }

  /** The product of a row. */
  productAt(rows: Int32Array, index: number): Product | undefined {
    const slot = rows[index];
    return slot === undefined ? undefined : this.catalogue.at(slot);
  }

  /** The products of some rows, in order (a report, a selection, their worth). */
  products(rows: Int32Array): Product[] {
    const out: Product[] = [];
    for (let i = 0; i < rows.length; i++) out.push(this.catalogue.at(rows[i] as number));
    return out;
  }

  /** Products in the catalogue. */
  size(): number {
    return this.catalogue.slotCount();
  }

  /** Vendors, years and locations of the whole catalogue (for the filter choices). */
  options(): FilterOptions {
    this.optionsCache ??= filterOptions(this.allProducts());
    return this.optionsCache;
  }

  /** Computes search keys not computed yet while `more()` allows (idle time); answers whether all are done. */
  fillKeys(more: () => boolean): boolean {
    const n = this.catalogue.slotCount();
    for (let slot = n - 1; slot >= 0; slot--) {
      if (this.keys[slot] !== undefined) continue;
      if (!more()) return false;
      this.keyAt(slot);
    }
    this.keysFilled = true;
    return true;
  }

  /**
   * Whether a new search costs one pass over ready keys (a few ms at 100,000 products), not a
   * search key made for each product first: then typing can filter in the keystroke's own render.
   */
  searchIsCheap(): boolean {
    return this.keysFilled;
  }

  private *allProducts(): Generator<Product> {
    const n = this.catalogue.slotCount();
    for (let slot = 0; slot < n; slot++) yield this.catalogue.at(slot);
  }

  private keyAt(slot: number): string {
    let key = this.keys[slot];
    if (key === undefined) {
      key = searchKey(this.catalogue.at(slot));
      this.keys[slot] = key;
    }
    return key;
  }

  private reset(): void {
    this.recent.clear();
    this.keysFilled = false;
    this.order = null;
    this.values = null;
    this.filters = null;
    this.optionsCache = null;
    // One entry per slot from the start: an array filled out of order would become a slow, sparse one.
    const n = this.catalogue.slotCount();
    const keys: Array<string | undefined> = [];
    for (let i = 0; i < n; i++) keys.push(undefined);
    this.keys = keys;
  }

  /** Takes catalogue changes; answers whether the rows (or what else the view shows of the whole) changed. */
  private apply(changes: CatalogueChanges): boolean {
    if (changes === "reset" || changes.length > PATCH_MAX) {
      this.reset();
      return true;
    }
    if (this.order === null) return false;
    let changed = false;
    for (const change of changes) changed = this.patch(change) || changed;
    return changed;
  }

  private compare = (a: number, b: number): number => {
    const values = this.values;
    if (values) {
      const x = values[a] ?? null;
      const y = values[b] ?? null;
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        const c = x < y ? -1 : 1;
        return this.sorted?.desc ? -c : c;
      }
    }
    // Ties, and no sort: the catalogue's order, newest first.
    return b - a;
  };

  private sortAll(sort: RowSort | null): void {
    const n = this.catalogue.slotCount();
    if (this.keys.length !== n) this.reset();
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = n - 1 - i;
    this.sorted = sort;
    if (sort) {
      const values: SortValue[] = [];
      for (let slot = 0; slot < n; slot++) values.push(sort.value(this.catalogue.at(slot)));
      this.values = values;
      order.sort(this.compare);
    } else {
      this.values = null;
    }
    this.order = order;
    this.filters = null;
    this.seen = this.catalogue.catalogueNotices();
  }

  /** The rows of `source` that pass the filters; `narrowed`: the filters `source` passed (a shorter search, the rest alike). */
  private filterFrom(source: Int32Array, narrowed: InventoryFilters | null): Int32Array {
    const test = this.test;
    const kept = this.kept;
    if (!test) return source;
    const f = this.filters as InventoryFilters;
    if (panelFilterCount(f) === 0) {
      // Narrowing: the rows already hold every word of the shorter search and pass 'Active only'
      // (or are kept): only the new words are looked for ("chrome 1" to "chrome 12": "12").
      const had = narrowed ? searchTerms(narrowed) : [];
      const terms = searchTerms(f).filter((t) => !had.includes(t));
      return this.searchFrom(source, terms, f.activeOnly && narrowed === null);
    }
    const out = new Int32Array(source.length);
    let n = 0;
    for (let i = 0; i < source.length; i++) {
      const slot = source[i] as number;
      const p = this.catalogue.at(slot);
      if (test(p, slot) || (kept.size > 0 && kept.has(p.id))) out[n++] = slot;
    }
    return n === out.length ? out : out.slice(0, n);
  }

  /** filterFrom for the search box and 'Active only' alone (what typing runs): one tight loop over the keys. */
  private searchFrom(source: Int32Array, terms: string[], activeOnly: boolean): Int32Array {
    const kept = this.kept;
    const keys = this.keys;
    const out = new Int32Array(source.length);
    let n = 0;
    outer: for (let i = 0; i < source.length; i++) {
      const slot = source[i] as number;
      if (activeOnly && this.catalogue.at(slot).is_active === false && !(kept.size > 0 && kept.has(this.catalogue.at(slot).id))) continue;
      if (terms.length > 0) {
        const key = keys[slot] ?? this.keyAt(slot);
        for (let k = 0; k < terms.length; k++) {
          if (!key.includes(terms[k] as string)) {
            if (kept.size > 0 && kept.has(this.catalogue.at(slot).id)) break;
            continue outer;
          }
        }
      }
      out[n++] = slot;
    }
    return n === out.length ? out : out.slice(0, n);
  }

  private shows(p: Product): boolean {
    return !this.productTest || this.productTest(p, p) || this.kept.has(p.id);
  }

  /** One product changed or joined; answers whether the rows changed. */
  private patch({ slot, previous }: CatalogueChange): boolean {
    const order = this.order as Int32Array;
    const next = this.catalogue.at(slot);
    const sortValue = this.sorted ? this.sorted.value(next) : null;
    if (!previous) {
      // New to this tab: it joins the order (and the rows, when it passes the filters).
      this.recent.clear();
      this.keys[slot] = undefined;
      if (this.values) this.values[slot] = sortValue;
      this.order = insert(order, slot, this.compare);
      if (this.filters && this.rows !== order && this.shows(next)) this.rows = insert(this.rows, slot, this.compare);
      else if (this.rows === order) this.rows = this.order;
      this.optionsCache = null;
      return true;
    }
    const rekeyed = searchKey(previous) !== searchKey(next);
    if (rekeyed) this.keys[slot] = undefined;
    if (rekeyed || previous.is_active !== next.is_active) this.recent.clear();
    let changed = false;
    if (previous.vendor !== next.vendor || previous.release_year !== next.release_year || previous.location !== next.location) {
      this.optionsCache = null;
      changed = true;
    }
    if (!this.filters) return changed;
    const moves = this.values !== null && sortValue !== this.values[slot];
    const rowsAreOrder = this.rows === order;
    const was = rowsAreOrder || this.shows(previous);
    const is = rowsAreOrder || this.shows(next);
    if (!moves && was === is) return changed;
    this.recent.clear();
    // Out of its place (by its old value), then into its new one.
    let rows = this.rows;
    let newOrder = order;
    if (moves) newOrder = remove(order, slot, this.compare);
    if (!rowsAreOrder && was) rows = remove(rows, slot, this.compare);
    if (this.values) this.values[slot] = sortValue;
    if (moves) newOrder = insert(newOrder, slot, this.compare);
    if (rowsAreOrder) rows = newOrder;
    else if (is) rows = insert(rows, slot, this.compare);
    this.order = newOrder;
    this.rows = rows;
    return true;
  }
}

/** First index whose slot sorts at or after `slot`. */
function lowerBound(arr: Int32Array, slot: number, compare: (a: number, b: number) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(arr[mid] as number, slot) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insert(arr: Int32Array, slot: number, compare: (a: number, b: number) => number): Int32Array {
  const at = lowerBound(arr, slot, compare);
  const out = new Int32Array(arr.length + 1);
  out.set(arr.subarray(0, at));
  out[at] = slot;
  out.set(arr.subarray(at), at + 1);
  return out;
}

function remove(arr: Int32Array, slot: number, compare: (a: number, b: number) => number): Int32Array {
  let at = lowerBound(arr, slot, compare);
  if (arr[at] !== slot) at = arr.indexOf(slot);
  if (at < 0) return arr;
  const out = new Int32Array(arr.length - 1);
  out.set(arr.subarray(0, at));
  out.set(arr.subarray(at + 1), at);
  return out;
}

/** The key of a search in `recent`: the search's words and 'Active only', or null when panel filters are set too (not kept). */
function searchCacheKey(f: InventoryFilters): string | null {
  if (panelFilterCount(f) !== 0) return null;
  return `${f.activeOnly ? 1 : 0}|${searchTerms(f).join(" ")}`;
}
