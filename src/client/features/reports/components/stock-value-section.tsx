import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { StockValueDay, StockValueReport } from "../../../../contract/reports";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { stockValueQuery } from "../api/get-stock-value";
import { dayLabel, type ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { ChartOrTable, ReportCard } from "./report-card";
import { type ChartSeries, TimeChart } from "./time-chart";

/**
 * The stock now at market prices (each product's latest, as the inventory shows it), and the
 * products in stock that have none, counted: their stock is not in the figure.
 */
function MarketNow({ market, money }: { market: StockValueReport["market_now"]; money: (cents: number | null) => string }) {
  const n = (v: number) => v.toLocaleString("en-US");
  return (
    <p className="text-sm" data-testid="stock-at-market">
      {market.products_priced === 0 ? (
        "No product in stock has a market price yet"
      ) : (
        <>
          <span className="font-semibold">{money(market.at_market)}</span> at market now ({n(market.units_priced)} units of{" "}
          {n(market.products_priced)} {market.products_priced === 1 ? "product" : "products"})
        </>
      )}
      {market.products_without_market > 0 ? (
        <>
          ; {n(market.products_without_market)} {market.products_without_market === 1 ? "product" : "products"} in stock (
          {n(market.units_without_market)} units) {market.products_without_market === 1 ? "has" : "have"} no market price and{" "}
          {market.products_without_market === 1 ? "is" : "are"} not counted
        </>
      ) : null}
      .
    </p>
  );
}

/** Stock value over time: at price and (for managers) at cost, one point per day; units in the table; the stock now at market. */
export function StockValueSection({ range, dark, cost }: { range: ReportRange; dark: boolean; cost: boolean }) {
  const money = useMoney();
  const query = useQuery(stockValueQuery({ from: range.from, to: range.to }));
  const [showTable, setShowTable] = useState(false);
  const days = query.data?.days;
  const format = useMemo(() => (v: number) => money(Math.round(v)), [money]);
  const dayList = useMemo(() => days?.map((d) => d.day) ?? [], [days]);
  const series = useMemo(() => {
    if (!days) return [];
    const out: ChartSeries[] = [{ label: "At price", values: days.map((d) => d.at_price), color: "#2563eb" }];
    if (cost) out.push({ label: "At cost", values: days.map((d) => d.at_cost), color: "#d97706" });
    return out;
  }, [days, cost]);
  const columns = useMemo<Column<StockValueDay>[]>(
    () => [
      { id: "day", label: "Day", value: (d) => d.day, render: (d) => dayLabel(d.day) },
      { id: "units", label: "Units", value: (d) => d.units, numeric: true },
      { id: "at_price", label: "At price", value: (d) => d.at_price, render: (d) => money(d.at_price), numeric: true },
      ...(cost
        ? [
            {
              id: "at_cost",
              label: "At cost",
              value: (d: StockValueDay) => d.at_cost,
              render: (d: StockValueDay) => money(d.at_cost),
              numeric: true,
            },
          ]
        : []),
    ],
    [money, cost],
  );
  const csv = () => {
    if (!days) return;
    const header = ["day", "units", "at_price", ...(cost ? ["at_cost"] : [])];
    downloadCsv(
      `stock-value-${range.from}-${range.to}.csv`,
      toCsv(
        header,
        days.map((d) => ({ day: d.day, units: String(d.units), at_price: amountCell(d.at_price), at_cost: amountCell(d.at_cost) })),
      ),
    );
  };
  const last = days?.at(-1);
  return (
    <ReportCard
      title="Stock value"
      testId="report-stock-value"
      loading={query.isPending}
      error={query.error}
      onCsv={days?.length ? csv : undefined}
    >
      {days ? (
        <>
          {last ? (
            <p className="text-sm">
              <span className="font-semibold">{last.units.toLocaleString("en-US")}</span> units,{" "}
              <span className="font-semibold">{money(last.at_price)}</span> at price
              {cost && last.at_cost !== null ? (
                <>
                  , <span className="font-semibold">{money(last.at_cost)}</span> at cost
                </>
              ) : null}{" "}
              on {dayLabel(last.day)}
            </p>
          ) : null}
          {query.data?.market_now ? <MarketNow market={query.data.market_now} money={money} /> : null}
          <ChartOrTable
            showTable={showTable}
            onToggle={setShowTable}
            chart={
              <TimeChart
                days={dayList}
                series={series}
                format={format}
                dark={dark}
                height={150}
                label="Stock value per day; the numbers are in the table"
              />
            }
            table={
              <DataTable
                caption={`Stock value per day, ${range.from} to ${range.to}`}
                columns={columns}
                rows={days}
                rowKey={(d) => d.day}
                empty="No days kept yet"
                testId="stock-value-table"
              />
            }
          />
        </>
      ) : null}
    </ReportCard>
  );
}
