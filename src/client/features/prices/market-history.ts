// A product's market price over time, for the sparkline. No zod and no React.
import type { ProductMarket } from "../../../contract/prices";

export interface HistoryPoint {
  /** YYYY-MM-DD */
  day: string;
  cents: number;
}

/**
 * The market price of the latest feed's printing, oldest first: a point on each day it changed,
 * and the last one again on the day the feed last confirmed it (the history keeps changes only).
 */
export function marketSeries(market: Pick<ProductMarket, "latest" | "history">): HistoryPoint[] {
  const { latest } = market;
  if (!latest) return [];
  const points = market.history
    .filter((h) => h.feed_id === latest.feed_id && h.finish === latest.finish && h.market !== null)
    .map((h) => ({ day: h.day, cents: h.market as number }))
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const last = points.at(-1);
  if (last && latest.checked_on > last.day) points.push({ day: latest.checked_on, cents: last.cents });
  return points;
}

/**
 * An SVG path of the points as steps (a price holds until the next change), days along x and
 * cents up y, inside `width` x `height` less `pad` on each side. One point is a flat line.
 */
export function sparklinePath(points: HistoryPoint[], width: number, height: number, pad = 2): string {
  if (points.length === 0) return "";
  const times = points.map((p) => Date.parse(`${p.day}T00:00:00Z`));
  const first = times[0] as number;
  const span = (times.at(-1) as number) - first;
  const low = Math.min(...points.map((p) => p.cents));
  const high = Math.max(...points.map((p) => p.cents));
  const x = (t: number) => pad + (span === 0 ? 0 : ((t - first) / span) * (width - 2 * pad));
  const y = (cents: number) => pad + (high === low ? (height - 2 * pad) / 2 : ((high - cents) / (high - low)) * (height - 2 * pad));
  const round = (n: number) => Math.round(n * 10) / 10;
  let path = `M${round(x(first))} ${round(y(points[0]?.cents ?? 0))}`;
  for (let i = 1; i < points.length; i++) path += ` H${round(x(times[i] as number))} V${round(y(points[i]?.cents ?? 0))}`;
  if (points.length === 1) path += ` H${width - pad}`;
  return path;
}
