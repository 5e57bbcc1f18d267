import { useMoney } from "../../settings";
import { type HistoryPoint, sparklinePath } from "../market-history";

const WIDTH = 120;
const HEIGHT = 32;

/** The market price over time as a small line; its numbers in words for screen readers. */
export function PriceSparkline({ points }: { points: HistoryPoint[] }) {
  const money = useMoney();
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || points.length < 2) return null;
  const cents = points.map((p) => p.cents);
  const label = `Market price from ${money(first.cents)} on ${first.day} to ${money(last.cents)} on ${last.day}; lowest ${money(Math.min(...cents))}, highest ${money(Math.max(...cents))}`;
  return (
    <svg
      role="img"
      aria-label={label}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="shrink-0 text-blue-700 dark:text-blue-400"
      data-testid="market-sparkline"
    >
      <path d={sparklinePath(points, WIDTH, HEIGHT)} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
