import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { SalesReport } from "../../../../contract/reports";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { salesReportQuery } from "../api/get-sales-report";
import { changeText, dayLabel, type ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { ChartOrTable, Choice, Figure, ReportCard } from "./report-card";
import { type ChartSeries, TimeChart } from "./time-chart";

/** Each source keeps its colour whatever the others sold: shows blue, streamer taps green, order channels after. */
const ORDER_COLORS = ["#d97706", "#9333ea", "#db2777", "#0891b2"];
const sourceColor = (source: string, index: number) =>
  source === "show" ? "#2563eb" : source === "stream" ? "#16a34a" : (ORDER_COLORS[index % ORDER_COLORS.length] as string);
export const sourceLabel = (source: string) =>
  source === "show" ? "Shows" : source === "stream" ? "Streamer taps" : source.startsWith("order:") ? `Orders: ${source.slice(6)}` : source;

type Metric = "units" | "revenue";
type Row = SalesReport["buckets"][number];

/** Sales over time: units or revenue per bucket, split by source; totals against the range before. */
export function SalesSection({ range, dark }: { range: ReportRange; dark: boolean }) {
  const money = useMoney();
  const query = useQuery(salesReportQuery(range));
  const [metric, setMetric] = useState<Metric>("units");
  const [showTable, setShowTable] = useState(false);
  const report = query.data;

  const format = useMemo(
    () => (metric === "units" ? (v: number) => v.toLocaleString("en-US") : (v: number) => money(Math.round(v))),
    [metric, money],
  );
  const chart = useMemo(() => {
    if (!report) return null;
    const series: ChartSeries[] = [
      { label: "All", values: report.buckets.map((b) => b[metric]), color: dark ? "#9ca3af" : "#4b5563", bars: true },
      ...report.sources.map((s, i) => ({
        label: sourceLabel(s),
        values: report.buckets.map((b) => b.sources[s]?.[metric] ?? 0),
        color: sourceColor(s, i),
      })),
    ];
    return { days: report.buckets.map((b) => b.start), series };
  }, [report, metric, dark]);

  const columns = useMemo<Column<Row>[]>(() => {
    if (!report) return [];
    return [
      {
        id: "start",
        label: report.by === "day" ? "Day" : report.by === "week" ? "Week of" : "Month",
        value: (b) => b.start,
        render: (b) => dayLabel(b.start, report.by),
      },
      { id: "units", label: "Units", value: (b) => b.units, numeric: true },
      { id: "revenue", label: "Revenue", value: (b) => b.revenue, render: (b) => money(b.revenue), numeric: true },
      ...report.sources.map((s) => ({
        id: `u:${s}`,
        label: `${sourceLabel(s)} units`,
        value: (b: Row) => b.sources[s]?.units ?? 0,
        numeric: true,
      })),
    ];
  }, [report, money]);

  const csv = () => {
    if (!report) return;
    const header = ["start", "units", "revenue", ...report.sources.flatMap((s) => [`${s}_units`, `${s}_revenue`])];
    const rows = report.buckets.map((b) => ({
      start: b.start,
      units: String(b.units),
      revenue: amountCell(b.revenue),
      ...Object.fromEntries(
        report.sources.flatMap((s) => [
          [`${s}_units`, String(b.sources[s]?.units ?? 0)],
          [`${s}_revenue`, amountCell(b.sources[s]?.revenue ?? 0)],
        ]),
      ),
    }));
    downloadCsv(`sales-${report.by}-${report.from}-${report.to}.csv`, toCsv(header, rows));
  };

  return (
    <ReportCard
      title="Sales over time"
      testId="report-sales"
      loading={query.isPending}
      error={query.error}
      onCsv={report ? csv : undefined}
      controls={
        <Choice
          label="Measure"
          value={metric}
          onChange={setMetric}
          options={[
            { value: "units", label: "Units" },
            { value: "revenue", label: "Revenue" },
          ]}
        />
      }
    >
      {report && chart ? (
        <>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="sales-totals">
            <Figure
              label="Units"
              value={report.totals.units.toLocaleString("en-US")}
              change={changeText(report.totals.units, report.previous.units)}
              testId="sales-units"
            />
            <Figure
              label="Revenue"
              value={money(report.totals.revenue)}
              change={changeText(report.totals.revenue, report.previous.revenue)}
              testId="sales-revenue"
            />
            <Figure
              label="Units before"
              value={report.previous.units.toLocaleString("en-US")}
              note={`${dayLabel(report.previous.from)} – ${dayLabel(report.previous.to)}`}
            />
            <Figure label="Revenue before" value={money(report.previous.revenue)} note={`Days in ${report.timezone}`} />
          </dl>
          <ChartOrTable
            showTable={showTable}
            onToggle={setShowTable}
            chart={
              <TimeChart
                days={chart.days}
                series={chart.series}
                format={format}
                dark={dark}
                label={`Sales ${metric} per ${report.by}, by source; the numbers are in the table`}
              />
            }
            table={
              <DataTable
                caption={`Sales per ${report.by}, ${report.from} to ${report.to}`}
                columns={columns}
                rows={report.buckets}
                rowKey={(b) => b.start}
                testId="sales-table"
              />
            }
          />
        </>
      ) : null}
    </ReportCard>
  );
}
