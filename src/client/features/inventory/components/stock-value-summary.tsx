import { useMemo } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { isoDay } from "../../../lib/dates";
import { downloadCsv } from "../../csv";
import { useMoney } from "../../settings";
import { stockValue, stockValueCsv } from "../stock-value";

/** What the filters select is worth: units, value at price and at cost, and the report of it. */
export function StockValueSummary({ products }: { products: readonly Product[] }) {
  const money = useMoney();
  const value = useMemo(() => stockValue(products), [products]);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="stock-value">
      <span>
        <span className="font-semibold" data-testid="stock-units">
          {value.units.toLocaleString("en-US")}
        </span>{" "}
        {value.units === 1 ? "unit" : "units"}
      </span>
      <span>
        At price:{" "}
        <span className="font-semibold tabular-nums" data-testid="stock-at-price">
          {money(value.atPrice)}
        </span>
        {value.withoutPrice > 0 ? ` (${value.withoutPrice.toLocaleString("en-US")} without a price)` : ""}
      </span>
      <span>
        At cost:{" "}
        <span className="font-semibold tabular-nums" data-testid="stock-at-cost">
          {money(value.atCost)}
        </span>
        {value.withoutCost > 0 ? ` (${value.withoutCost.toLocaleString("en-US")} without a cost)` : ""}
      </span>
      <Button
        variant="ghost"
        size="sm"
        className="text-blue-800 underline dark:text-blue-300"
        onClick={() => downloadCsv(`stock-value-${isoDay(new Date())}.csv`, stockValueCsv(products))}
      >
        Stock value report
      </Button>
    </div>
  );
}
