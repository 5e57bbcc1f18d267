/** The product's audit date filters: all, today, last 7 days, last month. */
export type AuditDateRange = "all" | "today" | "week" | "month";

export const DATE_RANGE_LABELS: Record<AuditDateRange, string> = {
  all: "All time",
  today: "Today",
  week: "Last 7 days",
  month: "Last month",
};

export interface AuditFilters {
  /** A user id, or null for everyone. */
  userId: number | null;
  /** ISO start of the range, or null for all time. */
  since: string | null;
  /** How many entries to load (the server's default page is 100, at most 1000). */
  limit?: number;
  /** How many of the newest entries to skip (paging). */
  offset?: number;
}

export const AUDIT_PAGE = 100;

/** The start of a date range, seen from `now` in local time; null for all. */
export function sinceFor(range: AuditDateRange, now: Date = new Date()): string | null {
  if (range === "all") return null;
  const start = new Date(now);
  if (range === "today") start.setHours(0, 0, 0, 0);
  else if (range === "week") start.setDate(start.getDate() - 7);
  else start.setMonth(start.getMonth() - 1);
  return start.toISOString();
}

/** The query string the audit lists take: user_id, since, limit and offset. */
export function auditSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  if (filters.userId !== null) params.set("user_id", String(filters.userId));
  if (filters.since !== null) params.set("since", filters.since);
  if (filters.limit !== undefined && filters.limit !== AUDIT_PAGE) params.set("limit", String(filters.limit));
  if (filters.offset) params.set("offset", String(filters.offset));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Field labels of audit entries. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  product_name: "Product Name",
  vendor: "Vendor",
  barcode: "Barcode",
  release_year: "Release Year",
  quantity_on_hand: "Quantity",
  is_active: "Status",
};

/** An audit value as text: statuses as Active/Disabled, blanks as a dash. */
export function auditValue(field: string, value: unknown): string {
  if (field === "is_active" && typeof value === "boolean") return value ? "Active" : "Disabled";
  if (value === null || value === undefined || value === "") return "—";
  return String(value);
}

/** Short month, day, year and the time (spec: dates as short month, day, year). */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
}
