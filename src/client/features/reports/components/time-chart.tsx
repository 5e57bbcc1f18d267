import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  color: string;
  /** Drawn as bars (one per bucket) rather than a line. */
  bars?: boolean;
}

interface TimeChartProps {
  /** The x values: days YYYY-MM-DD (each bucket's first day). */
  days: string[];
  series: ChartSeries[];
  /** Formats a y value on the axis and in the legend. */
  format: (value: number) => string;
  dark: boolean;
  height?: number;
  /** What the picture shows, for screen readers; the numbers are in the table beside it. */
  label: string;
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * A uPlot chart of values per day (canvas, so hidden from screen readers: `label` names it and
 * the section's table holds its numbers). Days are drawn as UTC dates, so a bucket's date is the
 * one the server answered whatever the browser's zone. It follows its box's width.
 */
export function TimeChart({ days, series, format, dark, height = 180, label }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ink = dark ? "#d1d5db" : "#374151";
    const grid = dark ? "#374151" : "#e5e7eb";
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 88, values: (_u, ticks) => ticks.map((t) => format(t)) }],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            fill: s.bars ? `${s.color}66` : undefined,
            paths: s.bars ? bars : undefined,
            points: { show: days.length < 60 },
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)),
          })),
        ],
      },
      // One day alone gets an empty day either side (uPlot would otherwise stretch it over years).
      days.length === 1
        ? [
            [seconds(days[0] as string) - 86_400, seconds(days[0] as string), seconds(days[0] as string) + 86_400],
            ...series.map((s) => [null, s.values[0] ?? null, null]),
          ]
        : [days.map(seconds), ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, format, dark, height]);
  return <div ref={box} role="img" aria-label={label} className="w-full overflow-hidden text-xs text-gray-800 dark:text-gray-200" />;
}
