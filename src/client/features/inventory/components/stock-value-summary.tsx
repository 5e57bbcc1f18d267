import { memo, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { formatCount } from "../../../lib/counts";
import { isoDay } from "../../../lib/dates";
import { downloadCsv } from "../../csv";
import { useMoney } from "../../settings";
import type { RowIndex } from "../row-index";
import { addStockValue, noStockValue, stockValueAt, stockValueCsv } from "../stock-value";

/** Rows added up between two looks at the idle time left (about a millisecond's worth). */
const SLICE_ROWS = 10_000;

/** What the filters select is worth: units, value at price and at cost, and the report of it (again after any product changed). */
export const StockValueSummary = memo(function StockValueSummary({ index, rows }: { index: RowIndex; rows: Int32Array }) {
  const money = useMoney();
  const patches = useSyncExternalStore(index.subscribe, index.getPatches);
  const worth = () => stockValueAt(rows.length, (i) => index.productAt(rows, i) as Product);
  const [value, setValue] = useState(worth);
  /** What `value` was added up from: the first render's pass is not made again when the page is next idle. */
  const summed = useRef({ index, rows, patches });
  // When the page is idle, after the rows are on screen: a keystroke's rows (and the next
  // keystroke) go first, their worth follows (a pass over every row shown, in slices of the idle
  // time, so a keystroke never waits for a pass over 100,000 rows).
  useEffect(() => {
    const last = summed.current;
    if (last.index === index && last.rows === rows && last.patches === patches) return;
    const sum = noStockValue();
    let i = 0;
    let cancelled = false;
    let handle = 0;
    const idle = typeof window.requestIdleCallback === "function";
    const work = (deadline?: IdleDeadline) => {
      if (cancelled) return;
      do {
        const end = Math.min(rows.length, i + SLICE_ROWS);
        for (; i < end; i++) addStockValue(sum, index.productAt(rows, i) as Product);
      } while (i < rows.length && deadline !== undefined && deadline.timeRemaining() > 2);
      if (i < rows.length) return schedule();
      summed.current = { index, rows, patches };
      setValue(sum);
    };
    const schedule = () => {
      handle = idle ? window.requestIdleCallback(work, { timeout: 500 }) : window.setTimeout(work, 0);
    };
    schedule();
    return () => {
      cancelled = true;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, [index, rows, patches]);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="stock-value">
      <span>
        <span className="font-semibold" data-testid="stock-units">
          {formatCount(value.units)}
        </span>{" "}
        {value.units === 1 ? "unit" : "units"}
      </span>
      <span>
        At price:{" "}
        <span className="font-semibold tabular-nums" data-testid="stock-at-price">
          {money(value.atPrice)}
        </span>
        {value.withoutPrice > 0 ? ` (${formatCount(value.withoutPrice)} without a price)` : ""}
      </span>
      <span>
        At cost:{" "}
        <span className="font-semibold tabular-nums" data-testid="stock-at-cost">
          {money(value.atCost)}
        </span>
        {value.withoutCost > 0 ? ` (${formatCount(value.withoutCost)} without a cost)` : ""}
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
