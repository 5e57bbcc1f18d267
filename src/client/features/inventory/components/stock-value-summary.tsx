import { memo, useEffect, useState, useSyncExternalStore } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { isoDay } from "../../../lib/dates";
import { downloadCsv } from "../../csv";
import { useMoney } from "../../settings";
import type { RowIndex } from "../row-index";
import { stockValueAt, stockValueCsv } from "../stock-value";

/** What the filters select is worth: units, value at price and at cost, and the report of it (again after any product changed). */
export const StockValueSummary = memo(function StockValueSummary({ index, rows }: { index: RowIndex; rows: Int32Array }) {
  const money = useMoney();
  const patches = useSyncExternalStore(index.subscribe, index.getPatches);
  const worth = () => stockValueAt(rows.length, (i) => index.productAt(rows, i) as Product);
  const [value, setValue] = useState(worth);
  // When the page is idle, after the rows are on screen: a keystroke's rows (and the next
  // keystroke) go first, their worth follows (a pass over every row shown).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `patches` says a product changed (its stock, its price).
  useEffect(() => {
    const compute = () => setValue(worth());
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(compute, 0);
      return () => window.clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(compute, { timeout: 500 });
    return () => window.cancelIdleCallback(handle);
  }, [index, rows, patches]);
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
        onClick={() => downloadCsv(`stock-value-${isoDay(new Date())}.csv`, stockValueCsv(index.products(rows)))}
      >
        Stock value report
      </Button>
    </div>
  );
});
