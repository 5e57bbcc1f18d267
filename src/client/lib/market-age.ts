// How old a market price is, in the shop's days. No zod and no React: the streamer screen uses it.

const DAY_MS = 86_400_000;

/** Whole days from one YYYY-MM-DD to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** "today", "yesterday", "3 days ago": the day a feed last confirmed a price, seen from the shop's today. */
export function ageText(day: string, today: string): string {
  const days = daysBetween(day, today);
  if (days <= 0) return "today";
  if (days === 1) return "yesterday";
  return `${days.toLocaleString("en-US")} days ago`;
}
