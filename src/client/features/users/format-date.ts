const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });

/** A timestamp as a short month, day, year date, e.g. "Nov 22, 2026" (the viewer's time zone); "" when unreadable. */
export function formatShortDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const format = timeZone ? new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone }) : SHORT_DATE;
  return format.format(date);
}
