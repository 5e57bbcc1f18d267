import { ageText } from "../../../lib/market-age";
import type { MarketCell } from "../../../lib/market-quotes";

/**
 * A product's market price in a row or on a card: "$12.34" and how old it is ("3 days ago"), a
 * dash when no feed prices it, dots while it is asked for. `compact`: one short line under the
 * price (a phone's row).
 */
export function MarketText({
  market,
  money,
  today,
  compact = false,
}: {
  market: MarketCell;
  money: (cents: number | null) => string;
  today: string;
  compact?: boolean;
}) {
  if (compact && (!market || market === "failed")) return null;
  if (market === "failed") {
    return (
      <span className="text-gray-700 dark:text-gray-300" data-testid="market-cell" title="The market price could not be loaded">
        <span aria-hidden="true">?</span>
        <span className="sr-only">Market price not loaded</span>
      </span>
    );
  }
  if (market === undefined) {
    return (
      <span className="text-gray-700 dark:text-gray-300" data-testid="market-cell" aria-busy="true">
        <span aria-hidden="true">…</span>
        <span className="sr-only">Market price loading</span>
      </span>
    );
  }
  if (market === null) {
    return (
      <span data-testid="market-cell">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No market price</span>
      </span>
    );
  }
  const age = ageText(market.checked_on, today);
  if (compact) {
    return (
      <span
        className="block truncate text-xs text-gray-700 dark:text-gray-300"
        data-testid="market-cell"
        title={`Market price, seen ${age}`}
      >
        Mkt {money(market.market)}
        <span className="sr-only">, seen {age}</span>
      </span>
    );
  }
  return (
    <span className="flex flex-col items-end leading-tight" data-testid="market-cell" title={`Market price, seen ${age}`}>
      <span className="tabular-nums">{money(market.market)}</span>
      <time className="text-xs text-gray-700 dark:text-gray-300" dateTime={market.checked_on}>
        {age}
      </time>
    </span>
  );
}
