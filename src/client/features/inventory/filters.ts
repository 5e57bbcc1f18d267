import type { Product } from "../../../contract/products";
import { QUANTITY_BUCKETS } from "../../../contract/rules";

export type QuantityRange = "all" | keyof typeof QUANTITY_BUCKETS;
export type StatusFilter = "all" | "active" | "disabled";

export interface InventoryFilters {
  searchText: string;
  /** Exact vendor, or "" for every vendor. */
  vendor: string;
  /** Exact release year as text, or "" for every year. */
  releaseYear: string;
  quantityRange: QuantityRange;
  status: StatusFilter;
  activeOnly: boolean;
  /** Exact condition, or "" for any. */
  condition: string;
  /** Exact grader, or "" for any ("none" for raw cards: no grader). */
  grader: string;
  /** Exact location, or "" for any. */
  location: string;
}

/** The grader filter's choice for products without one (raw cards, sealed product). */
export const NO_GRADER = "none";

export const DEFAULT_FILTERS: InventoryFilters = {
  searchText: "",
  vendor: "",
  releaseYear: "",
  quantityRange: "all",
  status: "all",
  activeOnly: true,
  condition: "",
  grader: "",
  location: "",
};

export const QUANTITY_RANGE_LABELS: Record<QuantityRange, string> = {
  all: "All quantities",
  out: "Out of stock (0)",
  low: "Low stock (1-5)",
  normal: "Normal (6-50)",
  high: "High (over 50)",
};

export const STATUS_LABELS: Record<StatusFilter, string> = { all: "All", active: "Active", disabled: "Disabled" };

/** Which bucket a stock level falls in: out of stock 0, low 1-5, normal 6-50, high above 50. */
export function quantityBucket(quantity: number): keyof typeof QUANTITY_BUCKETS {
  if (quantity <= QUANTITY_BUCKETS.out.max) return "out";
  if (quantity <= QUANTITY_BUCKETS.low.max) return "low";
  if (quantity <= QUANTITY_BUCKETS.normal.max) return "normal";
  return "high";
}

export function isActive(product: Pick<Product, "is_active">): boolean {
  return product.is_active !== false;
}

/** Every filter differs from its default? false: the list is unfiltered. */
export function hasActiveFilters(f: InventoryFilters): boolean {
  return (
    f.searchText.trim() !== "" ||
    f.vendor !== "" ||
    f.releaseYear !== "" ||
    f.quantityRange !== DEFAULT_FILTERS.quantityRange ||
    f.status !== DEFAULT_FILTERS.status ||
    f.activeOnly !== DEFAULT_FILTERS.activeOnly ||
    f.condition !== "" ||
    f.grader !== "" ||
    f.location !== ""
  );
}

/** Number of filters set in the expandable panel (vendor, year, quantity, status, condition, grader, location). */
export function panelFilterCount(f: InventoryFilters): number {
  return [
    f.vendor !== "",
    f.releaseYear !== "",
    f.quantityRange !== "all",
    f.status !== "all",
    f.condition !== "",
    f.grader !== "",
    f.location !== "",
  ].filter(Boolean).length;
}

type Searched = Pick<Product, "product_name" | "vendor" | "barcode" | "set_name" | "card_number" | "location">;

/** A product's lower-cased search text (name, vendor, barcode, set, card number, location), computed once per product. */
export function searchKey(p: Searched): string {
  return [p.product_name, p.vendor, p.barcode, p.set_name ?? "", p.card_number ?? "", p.location ?? ""].join("\u0000").toLowerCase();
}

/** The words of the search, lower-cased: a product matches when its search key holds every one. */
export function searchTerms(f: InventoryFilters): string[] {
  return f.searchText.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/** The predicate for a filter set; `keyOf` may serve cached search keys. */
export function productMatcher(f: InventoryFilters, keyOf: (p: Product) => string = searchKey): (p: Product) => boolean {
  const test = filterTest<Product>(f, keyOf);
  return test ? (p) => test(p, p) : () => true;
}

/**
 * The predicate for a filter set over a product and what its search key is found by (`keyOf(k)`,
 * asked only when a search is typed); null when every product passes.
 */
export function filterTest<K>(f: InventoryFilters, keyOf: (k: K) => string): ((p: Product, k: K) => boolean) | null {
  if (!hasActiveFilters({ ...f, activeOnly: false }) && !f.activeOnly) return null;
  const terms = searchTerms(f);
  const year = f.releaseYear === "" ? null : Number(f.releaseYear);
  const bucket = f.quantityRange;
  return (p, k) => {
    const active = isActive(p);
    if (f.activeOnly && !active) return false;
    if (f.status === "active" && !active) return false;
    if (f.status === "disabled" && active) return false;
    if (f.vendor !== "" && p.vendor !== f.vendor) return false;
    if (year !== null && p.release_year !== year) return false;
    if (bucket !== "all" && quantityBucket(p.quantity_on_hand) !== bucket) return false;
    if (f.condition !== "" && p.condition !== f.condition) return false;
    if (f.grader !== "" && (p.grader ?? NO_GRADER) !== f.grader) return false;
    if (f.location !== "" && p.location !== f.location) return false;
    if (terms.length > 0) {
      const key = keyOf(k);
      for (const t of terms) if (!key.includes(t)) return false;
    }
    return true;
  };
}

/**
 * The products matching `f`, and those in `kept` whatever they are now (a product this user just
 * disabled stays in view, greyed, until the filters change).
 */
export function filterProducts(
  products: readonly Product[],
  f: InventoryFilters,
  keyOf?: (p: Product) => string,
  kept: ReadonlySet<number> = new Set(),
): Product[] {
  if (!hasActiveFilters({ ...f, activeOnly: false }) && !f.activeOnly) return products.slice();
  const matches = productMatcher(f, keyOf);
  return kept.size === 0 ? products.filter(matches) : products.filter((p) => kept.has(p.id) || matches(p));
}

export interface FilterOptions {
  vendors: string[];
  years: number[];
  locations: string[];
}

/** Vendors, release years and locations present in the list, sorted, for the filter choices. */
export function filterOptions(products: Iterable<Product>): FilterOptions {
  const vendors = new Set<string>();
  const years = new Set<number>();
  const locations = new Set<string>();
  for (const p of products) {
    vendors.add(p.vendor);
    if (p.release_year !== null) years.add(p.release_year);
    if (p.location !== null) locations.add(p.location);
  }
  return {
    vendors: [...vendors].sort((a, b) => a.localeCompare(b)),
    years: [...years].sort((a, b) => b - a),
    locations: [...locations].sort((a, b) => a.localeCompare(b)),
  };
}

/** `next` can only match a subset of what `prev` matched: same filters, search text extended. */
export function narrows(prev: InventoryFilters, next: InventoryFilters): boolean {
  const a = prev.searchText.trim().toLowerCase();
  const b = next.searchText.trim().toLowerCase();
  return (
    a !== "" &&
    b.startsWith(a) &&
    prev.vendor === next.vendor &&
    prev.releaseYear === next.releaseYear &&
    prev.quantityRange === next.quantityRange &&
    prev.status === next.status &&
    prev.activeOnly === next.activeOnly &&
    prev.condition === next.condition &&
    prev.grader === next.grader &&
    prev.location === next.location
  );
}

/** Each filter's name in the address's query string (`/inventory?q=pikachu&vendor=Topps`). */
const FILTER_PARAMS = {
  searchText: "q",
  vendor: "vendor",
  releaseYear: "year",
  quantityRange: "stock",
  status: "status",
  activeOnly: "active",
  condition: "condition",
  grader: "grader",
  location: "location",
} as const satisfies Record<keyof InventoryFilters, string>;

const oneOf = <T extends string>(value: string | null, choices: Record<T, unknown>, fallback: T): T =>
  value !== null && Object.hasOwn(choices, value) ? (value as T) : fallback;

/** The filters a query string names; anything missing or not understood is the default. */
export function filtersFromSearch(params: URLSearchParams): InventoryFilters {
  const text = (key: keyof typeof FILTER_PARAMS) => params.get(FILTER_PARAMS[key]) ?? "";
  const year = text("releaseYear");
  return {
    searchText: text("searchText"),
    vendor: text("vendor"),
    releaseYear: /^\d{4}$/.test(year) ? year : "",
    quantityRange: oneOf(params.get(FILTER_PARAMS.quantityRange), QUANTITY_RANGE_LABELS, DEFAULT_FILTERS.quantityRange),
    status: oneOf(params.get(FILTER_PARAMS.status), STATUS_LABELS, DEFAULT_FILTERS.status),
    activeOnly: params.get(FILTER_PARAMS.activeOnly) !== "false",
    condition: text("condition"),
    grader: text("grader"),
    location: text("location"),
  };
}

/** The filters into `params`: only those that differ from the default (the plain `/inventory` is the unfiltered list). */
export function writeFilters(f: InventoryFilters, params: URLSearchParams): void {
  for (const key of Object.keys(FILTER_PARAMS) as (keyof InventoryFilters)[]) {
    const value = f[key];
    if (value !== DEFAULT_FILTERS[key]) params.set(FILTER_PARAMS[key], String(value));
  }
}
