/** The table's sort: one column (or none: the catalogue's order), either way. */
export type SortingState = Array<{ id: string; desc: boolean }>;
/** Selected products by id. */
export type RowSelection = Record<string, boolean>;

/** Cards or the table: remembered per browser; the table on wide screens and cards on phones until chosen. */
export type ViewMode = "grid" | "table";
export const VIEW_MODE_KEY = "blez-inventory-view";
export const TABLE_SORT_KEY = "blez-inventory-sort";
export const WIDE_SCREEN_QUERY = "(min-width: 768px)";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the choice lasts for this page
  }
}

export function readViewMode(wide = typeof matchMedia === "function" && matchMedia(WIDE_SCREEN_QUERY).matches): ViewMode {
  const saved = read(VIEW_MODE_KEY);
  if (saved === "grid" || saved === "table") return saved;
  return wide ? "table" : "grid";
}

export function storeViewMode(mode: ViewMode): void {
  write(VIEW_MODE_KEY, mode);
}

const SORTABLE = new Set([
  "product_name",
  "vendor",
  "barcode",
  "release_year",
  "quantity_on_hand",
  "price",
  "grade",
  "location",
  "is_active",
  "updated_at",
]);

/** The table's sort (one column, either way), remembered; none is the catalogue's order (newest first). */
export function readTableSort(): SortingState {
  try {
    const parsed = JSON.parse(read(TABLE_SORT_KEY) ?? "[]") as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((s): s is { id: string; desc: boolean } => typeof s?.id === "string" && SORTABLE.has(s.id) && typeof s.desc === "boolean")
      .slice(0, 1);
  } catch {
    return [];
  }
}

export function storeTableSort(sorting: SortingState): void {
  write(TABLE_SORT_KEY, JSON.stringify(sorting));
}

/** The sort's name in the address's query string: `sort=vendor`, or `sort=-vendor` for the other way. */
const SORT_PARAM = "sort";

/** The sort a query string names; undefined when it names none (or no column the table sorts by). */
export function sortFromSearch(params: URLSearchParams): SortingState | undefined {
  const value = params.get(SORT_PARAM) ?? "";
  const desc = value.startsWith("-");
  const id = desc ? value.slice(1) : value;
  return SORTABLE.has(id) ? [{ id, desc }] : undefined;
}

/** The sort into `params`; none (the catalogue's order) leaves it out. */
export function writeSort(sorting: SortingState, params: URLSearchParams): void {
  const by = sorting[0];
  if (by) params.set(SORT_PARAM, `${by.desc ? "-" : ""}${by.id}`);
}
