import { REPORT_BUCKETS, type ReportBucket } from "../../../contract/report-rules";

/** A range of days (both ends included), YYYY-MM-DD, and how sales are bucketed over it. */
export interface ReportRange {
  from: string;
  to: string;
  by: ReportBucket;
}

export const RANGE_PRESETS = [
  { id: "7d", label: "Last 7 days", days: 7, by: "day" },
  { id: "30d", label: "Last 30 days", days: 30, by: "day" },
  { id: "90d", label: "Last 90 days", days: 90, by: "week" },
  { id: "365d", label: "Last 12 months", days: 365, by: "month" },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]["id"];

const DAY_MS = 86_400_000;

/** Today in the shop's time zone (the browser's when the server did not say). */
export function todayIn(timeZone: string | undefined, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  } catch {
    return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  }
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The preset's range ending today. */
export function presetRange(preset: RangePreset, today: string): ReportRange {
  const p = RANGE_PRESETS.find((r) => r.id === preset) ?? RANGE_PRESETS[1];
  return { from: addDays(today, -(p.days - 1)), to: today, by: p.by };
}

/** The preset a range is (ending today), or "custom". */
export function presetOf(range: ReportRange, today: string): RangePreset | "custom" {
  const match = RANGE_PRESETS.find((p) => {
    const r = presetRange(p.id, today);
    return r.from === range.from && r.to === range.to && r.by === range.by;
  });
  return match ? match.id : "custom";
}

/** A real day as YYYY-MM-DD (not 2026-02-30). */
function isDay(value: string | null): value is string {
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/**
 * The range a query string names (`?from=2026-03-01&to=2026-03-31&by=week`, the address of a
 * report); the last 30 days when it names no such range. Without `by`, buckets as the presets do
 * for a range that long.
 */
export function rangeFromSearch(params: URLSearchParams, today: string): ReportRange {
  const from = params.get("from");
  const to = params.get("to");
  if (!isDay(from) || !isDay(to) || from > to) return presetRange("30d", today);
  const by = params.get("by");
  const days = daysIn({ from, to });
  const fallback = days <= 30 ? "day" : days <= 90 ? "week" : "month";
  return { from, to, by: REPORT_BUCKETS.find((b) => b === by) ?? fallback };
}

export function writeRange(range: ReportRange): URLSearchParams {
  return new URLSearchParams({ from: range.from, to: range.to, by: range.by });
}

/** Days of a range, both ends included. */
export function daysIn(range: { from: string; to: string }): number {
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Change against the previous range, as "+12%" / "-3%" / "new" / "0%". */
export function changeText(now: number, before: number): string {
  if (before === 0) return now === 0 ? "0%" : "new";
  const pct = Math.round(((now - before) / Math.abs(before)) * 100);
  return `${pct > 0 ? "+" : ""}${pct}%`;
}

/** A day as a short label: "Mar 8" (from YYYY-MM-DD, whatever the browser's zone). */
export function dayLabel(day: string, by: ReportBucket = "day"): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (by === "month") return date.toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
  const text = date.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  return by === "week" ? `Week of ${text}` : text;
}
