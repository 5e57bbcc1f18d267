import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { BOUGHT_IN_MARGIN_RULE, type BoughtInMarginRow, type BuysBucket } from "../../../../contract/counter-reports";
import { useMoney } from "../../settings";
import { boughtInMarginQuery } from "../api/get-bought-in-margin";
import { buysReportQuery } from "../api/get-buys-report";
import { creditReportQuery } from "../api/get-credit-report";
import type { ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { ReportCard } from "./report-card";

/** The counter's reports (issue 40): buys over time, the margin on cards bought in, and store credit outstanding. */
export function CounterSection({ range, cost }: { range: ReportRange; cost: boolean }) {
  return (
    <>
      <BuysCard range={range} />
      <MarginCard range={range} cost={cost} />
      <CreditCard range={range} />
    </>
  );
}

function BuysCard({ range }: { range: ReportRange }) {
  const money = useMoney();
  const query = useQuery(buysReportQuery({ from: range.from, to: range.to, by: range.by }));
  const report = query.data;
  const rows = report?.buckets.filter((b) => b.trade_ins > 0) ?? [];
  const columns = useMemo<Column<BuysBucket>[]>(
    () => [
      { id: "start", label: range.by === "day" ? "Day" : range.by === "week" ? "Week of" : "Month", value: (b) => b.start },
      { id: "trade_ins", label: "Trade-ins", value: (b) => b.trade_ins, numeric: true },
      { id: "units", label: "Cards", value: (b) => b.units, numeric: true },
      { id: "cash", label: "Cash paid", value: (b) => b.cash, render: (b) => money(b.cash), numeric: true },
      { id: "credit", label: "Credit given", value: (b) => b.credit, render: (b) => money(b.credit), numeric: true },
    ],
    [money, range.by],
  );
  return (
    <ReportCard title="Buys at the counter" testId="report-buys" loading={query.isPending} error={query.error}>
      {report ? (
        <>
          <p className="text-sm" data-testid="buys-totals">
            {report.totals.trade_ins} {report.totals.trade_ins === 1 ? "trade-in" : "trade-ins"} accepted, {report.totals.units} cards:{" "}
            {money(report.totals.cash)} in cash and {money(report.totals.credit)} in store credit.
          </p>
          <DataTable
            caption={`Trade-ins accepted ${range.from} to ${range.to}, per ${range.by}`}
            hideCaption
            columns={columns}
            rows={rows}
            rowKey={(b) => b.start}
            empty="No trade-ins accepted in this range"
            testId="buys-table"
          />
        </>
      ) : null}
    </ReportCard>
  );
}

function MarginCard({ range, cost }: { range: ReportRange; cost: boolean }) {
  const money = useMoney();
  const query = useQuery(boughtInMarginQuery({ from: range.from, to: range.to }));
  const report = query.data;
  const columns = useMemo<Column<BoughtInMarginRow>[]>(() => {
    const all: Column<BoughtInMarginRow>[] = [
      { id: "name", label: "Card", value: (r) => r.product_name },
      { id: "units", label: "Sold", value: (r) => r.units, numeric: true },
      { id: "revenue", label: "Revenue", value: (r) => r.revenue, render: (r) => money(r.revenue), numeric: true },
    ];
    if (!cost) return all;
    return [
      ...all,
      { id: "paid", label: "Paid per card", value: (r) => r.paid_per_unit, render: (r) => money(r.paid_per_unit ?? 0), numeric: true },
      { id: "cost", label: "Cost", value: (r) => r.cost, render: (r) => money(r.cost ?? 0), numeric: true },
      { id: "margin", label: "Margin", value: (r) => r.margin, render: (r) => money(r.margin ?? 0), numeric: true },
    ];
  }, [money, cost]);
  return (
    <ReportCard title="Margin on cards bought in" testId="report-bought-in-margin" loading={query.isPending} error={query.error}>
      <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="margin-rule">
        {BOUGHT_IN_MARGIN_RULE}
      </p>
      {report ? (
        <>
          <p className="text-sm font-semibold" data-testid="margin-totals">
            {report.totals.units} sold for {money(report.totals.revenue)}
            {report.totals.margin !== null && report.totals.cost !== null
              ? `, paid ${money(report.totals.cost)}: margin ${money(report.totals.margin)}`
              : " (cost and margin are shown to managers)"}
          </p>
          <DataTable
            caption={`Cards bought in and sold ${range.from} to ${range.to}`}
            hideCaption
            columns={columns}
            rows={report.products}
            rowKey={(r) => r.product_id}
            sortable
            initialSort={{ id: cost ? "margin" : "revenue", desc: true }}
            empty="No card bought in was sold in this range"
            testId="margin-table"
          />
        </>
      ) : null}
    </ReportCard>
  );
}

function CreditCard({ range }: { range: ReportRange }) {
  const money = useMoney();
  const query = useQuery(creditReportQuery({ from: range.from, to: range.to }));
  const report = query.data;
  return (
    <ReportCard title="Store credit outstanding" testId="report-credit" loading={query.isPending} error={query.error}>
      {report ? (
        <div className="flex flex-col gap-2">
          <p className="text-2xl font-bold" data-testid="credit-outstanding">
            {money(report.outstanding)}
          </p>
          <p className="text-sm">
            {report.customers_with_balance === 0
              ? "No customer has store credit."
              : `Owed now to ${report.customers_with_balance} ${report.customers_with_balance === 1 ? "customer" : "customers"} (the sum of their balances).`}
          </p>
          <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm" data-testid="credit-movements">
            <dt>From trade-ins</dt>
            <dd className="text-right">{money(report.movements.trade_in)}</dd>
            <dt>Spent on orders</dt>
            <dd className="text-right">{money(report.movements.order)}</dd>
            <dt>Adjustments</dt>
            <dd className="text-right">{money(report.movements.adjustment)}</dd>
            <dt>Expired</dt>
            <dd className="text-right">{money(report.movements.expiry)}</dd>
          </dl>
          <p className="text-xs text-gray-700 dark:text-gray-300">
            Movements are the ledger's entries from {range.from} to {range.to}; the amount owed is as of now.
          </p>
        </div>
      ) : null}
    </ReportCard>
  );
}
