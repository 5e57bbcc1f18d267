import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { ShowCompared } from "../../../../contract/reports";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { showsReportQuery } from "../api/get-shows-report";
import type { ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { ReportCard } from "./report-card";

export function durationText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/** Shows compared: units, revenue and duration of each show started in the range, with units per hour. */
export function ShowsSection({ range }: { range: ReportRange }) {
  const money = useMoney();
  const query = useQuery(showsReportQuery({ from: range.from, to: range.to }));
  const shows = query.data?.shows;
  const columns = useMemo<Column<ShowCompared>[]>(
    () => [
      { id: "name", label: "Show", value: (s) => s.name },
      {
        id: "started_at",
        label: "Started",
        value: (s) => s.started_at,
        render: (s) => new Date(s.started_at).toLocaleDateString("en-US", { month: "short", day: "numeric" }),
      },
      {
        id: "duration",
        label: "Duration",
        value: (s) => s.duration_seconds,
        render: (s) => durationText(s.duration_seconds),
        numeric: true,
      },
      { id: "units", label: "Units", value: (s) => s.units, numeric: true },
      { id: "revenue", label: "Revenue", value: (s) => s.revenue, render: (s) => money(s.revenue), numeric: true },
      {
        id: "per_hour",
        label: "Units/hour",
        value: (s) => (s.duration_seconds > 0 ? Math.round((s.units * 3600 * 10) / s.duration_seconds) / 10 : null),
        numeric: true,
      },
    ],
    [money],
  );
  const csv = () => {
    if (!shows) return;
    const header = ["show", "started_at", "ended_at", "duration_minutes", "units", "revenue"];
    const rows = shows.map((s) => ({
      show: s.name,
      started_at: s.started_at,
      ended_at: s.ended_at ?? "",
      duration_minutes: String(Math.round(s.duration_seconds / 60)),
      units: String(s.units),
      revenue: amountCell(s.revenue),
    }));
    downloadCsv(`shows-${range.from}-${range.to}.csv`, toCsv(header, rows));
  };
  return (
    <ReportCard
      title="Shows compared"
      testId="report-shows"
      loading={query.isPending}
      error={query.error}
      onCsv={shows?.length ? csv : undefined}
    >
      {shows ? (
        <DataTable
          caption={`Shows started ${range.from} to ${range.to}`}
          hideCaption
          columns={columns}
          rows={shows}
          rowKey={(s) => s.id}
          sortable
          initialSort={{ id: "started_at", desc: true }}
          empty="No shows in this range"
          testId="shows-table"
        />
      ) : null}
    </ReportCard>
  );
}
