import { todayIn } from "../../reports";
import { useMoney, useSettings } from "../../settings";
import { useProductMarket } from "../api/get-product-market";
import { ageText } from "../market-age";

/** "Market $12.34 · seen today" under the streamer's current price; nothing when no feed prices the product. */
export function MarketPriceLine({ productId }: { productId: number }) {
  const market = useProductMarket(productId);
  const money = useMoney();
  const { timezone } = useSettings();
  const latest = market.data?.latest;
  if (!latest || latest.market === null) return null;
  return (
    <p className="text-right text-lg font-semibold tabular-nums text-gray-800 dark:text-gray-100" data-testid="current-market">
      Market {money(latest.market)}{" "}
      <span className="text-sm font-normal text-gray-700 dark:text-gray-300">
        · seen <time dateTime={latest.checked_on}>{ageText(latest.checked_on, todayIn(timezone))}</time>
      </span>
    </p>
  );
}
