/** Reference computations of the reports tests: what the reports must equal, worked out in JavaScript from the audit rows. */

export interface AuditRow {
  id: number;
  productId: number | null;
  quantityChange: number;
  quantityAfter: number;
  transactionType: string;
  notes: string | null;
  showId: number | null;
  price: number | null;
  timestamp: Date;
}

/** The calendar day of an instant in a time zone, YYYY-MM-DD. */
export function localDay(at: Date, tz: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => dayOf(dayNumber(day) + n);

/** The first day of the bucket holding `day`: itself, its week's Monday, or its month's first. */
export function bucketOf(day: string, by: "day" | "week" | "month"): string {
  if (by === "day") return day;
  if (by === "month") return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(day, -weekday);
}

/**
 * The units a row counts as sold: a streamer's or a show's tap taking stock out, less an undo
 * putting a sale back; nothing for anything else.
 */
export function soldUnits(r: AuditRow): number {
  if (r.transactionType !== "adjustment") return 0;
  if (r.showId === null && r.notes !== "Streamer adjustment" && r.notes !== "Undo") return 0;
  if (r.notes === "Undo") return r.quantityChange > 0 ? -r.quantityChange : 0;
  return r.quantityChange < 0 ? -r.quantityChange : 0;
}

export const sourceOf = (r: AuditRow) => (r.showId !== null ? "show" : "stream");

/** Units and revenue per bucket start and source, over the rows whose local day is in [from, to]. */
export function expectedSales(rows: AuditRow[], q: { from: string; to: string; by: "day" | "week" | "month"; tz: string }) {
  const buckets = new Map<string, Map<string, { units: number; revenue: number }>>();
  const totals = { units: 0, revenue: 0 };
  for (const r of rows) {
    const units = soldUnits(r);
    if (units === 0) continue;
    const day = localDay(r.timestamp, q.tz);
    if (day < q.from || day > q.to) continue;
    const bucket = bucketOf(day, q.by);
    const sources = buckets.get(bucket) ?? new Map();
    buckets.set(bucket, sources);
    const s = sources.get(sourceOf(r)) ?? { units: 0, revenue: 0 };
    s.units += units;
    s.revenue += units * (r.price ?? 0);
    sources.set(sourceOf(r), s);
    totals.units += units;
    totals.revenue += units * (r.price ?? 0);
  }
  return { buckets, totals };
}

/**
 * The stock value at the end of each day of [first, last]: each product's stock after its last
 * change of that day or before (a forward replay of the audit), at today's price and cost.
 */
export function replayStockValue(
  rows: AuditRow[],
  prices: Map<number, { price: number | null; cost: number | null }>,
  q: { first: string; last: string; tz: string },
) {
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  const days: Array<{ day: string; units: number; at_price: number; at_cost: number }> = [];
  for (let day = q.first; day <= q.last; day = addDays(day, 1)) {
    const stock = new Map<number, number>();
    for (const r of sorted) if (r.productId !== null && localDay(r.timestamp, q.tz) <= day) stock.set(r.productId, r.quantityAfter);
    let units = 0;
    let atPrice = 0;
    let atCost = 0;
    for (const [id, quantity] of stock) {
      units += quantity;
      atPrice += quantity * (prices.get(id)?.price ?? 0);
      atCost += quantity * (prices.get(id)?.cost ?? 0);
    }
    days.push({ day, units, at_price: atPrice, at_cost: atCost });
  }
  return days;
}
