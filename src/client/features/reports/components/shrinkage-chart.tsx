import { useMemo } from "react";
import type { ShrinkageRow } from "../../../../contract/stock-takes";
import { TimeChart } from "./time-chart";

/**
 * Shrinkage as bars per period: units missing below the line, extra above. Loaded when first shown
 * (the section opens on its table), so the section renders where the chart library cannot.
 */
export function ShrinkageChart({ rows, by, dark }: { rows: readonly ShrinkageRow[]; by: string; dark: boolean }) {
  const days = useMemo(() => rows.map((r) => r.period), [rows]);
  const series = useMemo(
    () => [
      { label: "Missing", values: rows.map((r) => -r.missing), color: "#dc2626", bars: true },
      { label: "Extra", values: rows.map((r) => r.extra), color: "#16a34a", bars: true },
    ],
    [rows],
  );
  const format = useMemo(() => (v: number) => Math.round(v).toLocaleString("en-US"), []);
  return (
    <TimeChart
      days={days}
      series={series}
      format={format}
      dark={dark}
      height={150}
      label={`Units missing (below the line) and extra per ${by} from approved stock takes; the numbers are in the table`}
    />
  );
}
