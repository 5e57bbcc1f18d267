import { useCallback, useState } from "react";
import { REPORT_BUCKETS, type ReportBucket, seesCost } from "../../../../contract/report-rules";
import { useSearchState } from "../../../lib/use-search-state";
import { useAuth } from "../../auth";
import { useSettings } from "../../settings";
import { useTheme } from "../../theme";
import { presetOf, presetRange, RANGE_PRESETS, type RangePreset, rangeFromSearch, todayIn, writeRange } from "../report-range";
import { CounterSection } from "./counter-section";
import { ProductsSection } from "./products-section";
import { ReorderSection } from "./reorder-section";
import { Choice } from "./report-card";
import { SalesSection } from "./sales-section";
import { ShowsSection } from "./shows-section";
import { ShrinkageSection } from "./shrinkage-section";
import { StockValueSection } from "./stock-value-section";

const BUCKET_LABELS: Record<ReportBucket, string> = { day: "Day", week: "Week", month: "Month" };

export interface ReportsViewProps {
  /** The address's query string: the range (`/reports?from=2026-03-01&to=2026-03-31&by=day`). */
  search: string;
  /** Puts a new query string in the address (replacing the entry). */
  onSearchChange: (query: string) => void;
  /** Opens a product a row names. */
  onOpenProduct: (id: number) => void;
}

/**
 * Reports: sales over time, stock value, top sellers and slow movers, shows compared, the
 * "To reorder" list, shrinkage (approved stock take differences) and the counter's reports; one
 * screen on a laptop, stacked on a phone. Inventory users see it without money at cost (the
 * server leaves it out for them). The range is the address's: a reload or a
 * link shows the same days.
 */
export function ReportsView({ search, onSearchChange, onOpenProduct }: ReportsViewProps) {
  const { user } = useAuth();
  const { timezone } = useSettings();
  const { resolved } = useTheme();
  const dark = resolved === "dark";
  const cost = user ? seesCost(user.role) : false;
  const today = todayIn(timezone);
  const read = useCallback((params: URLSearchParams) => rangeFromSearch(params, today), [today]);
  const [range, setRange, flushRange] = useSearchState(search, onSearchChange, read, writeRange);
  const openProduct = useCallback(
    (id: number) => {
      flushRange();
      onOpenProduct(id);
    },
    [flushRange, onOpenProduct],
  );
  // "Custom" chosen with the dates of a preset still shows as Custom.
  const [custom, setCustom] = useState(false);
  const preset = custom ? "custom" : presetOf(range, today);

  const choosePreset = (p: RangePreset | "custom") => {
    setCustom(p === "custom");
    if (p !== "custom") setRange(presetRange(p, today));
  };
  const setDay = (which: "from" | "to", value: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
    const next = { ...range, [which]: value };
    setRange(next.from <= next.to ? next : which === "from" ? { ...next, to: value } : { ...next, from: value });
  };

  return (
    <div className="flex flex-col gap-3" data-testid="reports-view">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-bold text-gray-900 dark:text-gray-50">Reports</h1>
        <Choice
          label="Range"
          value={preset}
          onChange={choosePreset}
          options={[
            ...RANGE_PRESETS.map((p) => ({ value: p.id as RangePreset | "custom", label: p.label })),
            { value: "custom", label: "Custom" },
          ]}
        />
        <label className="flex items-center gap-1 text-sm text-gray-900 dark:text-gray-100">
          From
          <input
            type="date"
            className="rounded border border-gray-400 bg-white px-1 py-0.5 text-sm dark:border-gray-500 dark:bg-gray-900"
            value={range.from}
            max={range.to}
            onChange={(e) => setDay("from", e.target.value)}
          />
        </label>
        <label className="flex items-center gap-1 text-sm text-gray-900 dark:text-gray-100">
          To
          <input
            type="date"
            className="rounded border border-gray-400 bg-white px-1 py-0.5 text-sm dark:border-gray-500 dark:bg-gray-900"
            value={range.to}
            min={range.from}
            onChange={(e) => setDay("to", e.target.value)}
          />
        </label>
        <Choice
          label="Per"
          value={range.by}
          onChange={(by) => setRange({ ...range, by })}
          options={REPORT_BUCKETS.map((b) => ({ value: b, label: BUCKET_LABELS[b] }))}
        />
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <SalesSection range={range} dark={dark} />
        </div>
        <StockValueSection range={range} dark={dark} cost={cost} />
        <ProductsSection range={range} cost={cost} onOpenProduct={openProduct} />
        <ShowsSection range={range} />
        <ReorderSection cost={cost} onOpenProduct={openProduct} today={today} />
        <ShrinkageSection range={range} dark={dark} cost={cost} />
        <CounterSection range={range} cost={cost} />
      </div>
    </div>
  );
}
