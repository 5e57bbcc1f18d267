import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo, useState } from "react";
import type { ShrinkageRow } from "../../../../contract/stock-takes";
import { Spinner } from "../../../components/ui/spinner";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { shrinkageQuery } from "../api/get-shrinkage";
import { dayLabel, type ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { ChartOrTable, Figure, ReportCard } from "./report-card";

const ShrinkageChart = lazy(() => import("./shrinkage-chart").then((m) => ({ default: m.ShrinkageChart })));

export const SHRINKAGE_EMPTY = "No stock take differences approved in this range";

const signed = (n: number) => (n > 0 ? `+${n.toLocaleString("en-US")}` : n.toLocaleString("en-US"));

/**
 * Shrinkage (issue 41): the differences approved stock takes made, per day, week or month of the
 * range: how many stock takes, units missing and extra, the net, and (for those who see cost) their
 * value at cost. Only periods with approved changes are listed; the table shows first (the chart
 * is a click away).
 */
export function ShrinkageSection({ range, dark, cost }: { range: ReportRange; dark: boolean; cost: boolean }) {
  const money = useMoney();
  const query = useQuery(shrinkageQuery({ from: range.from, to: range.to, by: range.by }));
  const [showTable, setShowTable] = useState(true);
  const report = query.data;
  // The server leaves money at cost out (null) for those who do not see cost: so does the screen.
  const atCost = cost && report !== undefined && report.totals.value_at_cost !== null;
  const columns = useMemo<Column<ShrinkageRow>[]>(() => {
    const by = report?.by ?? range.by;
    const units: Column<ShrinkageRow>[] = [
      {
        id: "period",
        label: by === "day" ? "Day" : by === "week" ? "Week of" : "Month",
        value: (r) => r.period,
        render: (r) => dayLabel(r.period, by === "week" ? "day" : by),
      },
      { id: "stock_takes", label: "Stock takes", value: (r) => r.stock_takes, numeric: true },
      { id: "missing", label: "Missing", value: (r) => r.missing, render: (r) => r.missing.toLocaleString("en-US"), numeric: true },
      { id: "extra", label: "Extra", value: (r) => r.extra, render: (r) => r.extra.toLocaleString("en-US"), numeric: true },
      { id: "difference", label: "Net units", value: (r) => r.difference, render: (r) => signed(r.difference), numeric: true },
    ];
    if (!atCost) return units;
    return [
      ...units,
      {
        id: "missing_at_cost",
        label: "Missing at cost",
        value: (r) => r.missing_at_cost,
        render: (r) => money(r.missing_at_cost),
        numeric: true,
      },
      { id: "extra_at_cost", label: "Extra at cost", value: (r) => r.extra_at_cost, render: (r) => money(r.extra_at_cost), numeric: true },
      { id: "value_at_cost", label: "Net at cost", value: (r) => r.value_at_cost, render: (r) => money(r.value_at_cost), numeric: true },
    ];
  }, [report?.by, range.by, atCost, money]);

  const csv = () => {
    if (!report) return;
    const header = [
      "period",
      "stock_takes",
      "missing",
      "extra",
      "difference",
      ...(atCost ? ["missing_at_cost", "extra_at_cost", "value_at_cost"] : []),
    ];
    const rows = report.rows.map((r) => ({
      period: r.period,
      stock_takes: String(r.stock_takes),
      missing: String(r.missing),
      extra: String(r.extra),
      difference: String(r.difference),
      missing_at_cost: amountCell(r.missing_at_cost),
      extra_at_cost: amountCell(r.extra_at_cost),
      value_at_cost: amountCell(r.value_at_cost),
    }));
    downloadCsv(`shrinkage-${report.by}-${report.from}-${report.to}.csv`, toCsv(header, rows));
  };

  const totals = report?.totals;
  return (
    <ReportCard
      title="Shrinkage"
      testId="report-shrinkage"
      className="lg:col-span-3"
      loading={query.isPending}
      error={query.error}
      onCsv={report?.rows.length ? csv : undefined}
    >
      {report && totals ? (
        report.rows.length === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="shrinkage-empty">
            {SHRINKAGE_EMPTY}.
          </p>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="shrinkage-totals">
              <Figure label="Stock takes approved" value={totals.stock_takes.toLocaleString("en-US")} testId="shrinkage-stock-takes" />
              <Figure
                label="Units missing"
                value={totals.missing.toLocaleString("en-US")}
                note={atCost ? `${money(totals.missing_at_cost)} at cost` : undefined}
                testId="shrinkage-missing"
              />
              <Figure
                label="Units extra"
                value={totals.extra.toLocaleString("en-US")}
                note={atCost ? `${money(totals.extra_at_cost)} at cost` : undefined}
                testId="shrinkage-extra"
              />
              <Figure
                label="Net difference"
                value={signed(totals.difference)}
                note={atCost ? `${money(totals.value_at_cost)} at cost` : `Days in ${report.timezone}`}
                testId="shrinkage-net"
              />
            </dl>
            {atCost ? (
              <p className="text-xs text-gray-700 dark:text-gray-300">At each product's cost today; days in {report.timezone}.</p>
            ) : (
              <p className="text-xs text-gray-700 dark:text-gray-300">Values at cost are shown to managers.</p>
            )}
            <ChartOrTable
              showTable={showTable}
              onToggle={setShowTable}
              chart={
                <Suspense fallback={<Spinner label="Loading the chart" />}>
                  <ShrinkageChart rows={report.rows} by={report.by} dark={dark} />
                </Suspense>
              }
              table={
                <DataTable
                  caption={`Stock take differences approved per ${report.by}, ${report.from} to ${report.to}`}
                  columns={columns}
                  rows={report.rows}
                  rowKey={(r) => r.period}
                  empty={SHRINKAGE_EMPTY}
                  testId="shrinkage-table"
                />
              }
            />
          </>
        )
      ) : null}
    </ReportCard>
  );
}
