import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { SLOW_MOVER_DAYS } from "../../../../contract/report-rules";
import type { SlowMover, TopSeller } from "../../../../contract/reports";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { slowMoversQuery } from "../api/get-slow-movers";
import { topSellersQuery } from "../api/get-top-sellers";
import type { ReportRange } from "../report-range";
import { type Column, DataTable } from "./data-table";
import { Choice, ReportCard } from "./report-card";

type Tab = "top" | "slow";

/** A product's name as a button that opens it (the view decides how). */
function ProductLink({ id, name, onOpen }: { id: number; name: string; onOpen: (id: number) => void }) {
  return (
    <button
      type="button"
      className="text-left font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
      onClick={() => onOpen(id)}
    >
      {name}
    </button>
  );
}

/** Top sellers of the range, or slow movers (stock and no sale in 30/60/90 days) with the value they tie up. */
export function ProductsSection({
  range,
  cost,
  onOpenProduct,
}: {
  range: ReportRange;
  cost: boolean;
  onOpenProduct: (id: number) => void;
}) {
  const money = useMoney();
  const [tab, setTab] = useState<Tab>("top");
  const [days, setDays] = useState<number>(90);
  const top = useQuery({ ...topSellersQuery({ from: range.from, to: range.to }), enabled: tab === "top" });
  const slow = useQuery({ ...slowMoversQuery(days), enabled: tab === "slow" });
  const query = tab === "top" ? top : slow;

  const topColumns = useMemo<Column<TopSeller>[]>(
    () => [
      {
        id: "name",
        label: "Product",
        value: (p) => p.product_name,
        render: (p) => <ProductLink id={p.product_id} name={p.product_name} onOpen={onOpenProduct} />,
      },
      { id: "vendor", label: "Vendor", value: (p) => p.vendor },
      { id: "units", label: "Sold", value: (p) => p.units, numeric: true },
      { id: "revenue", label: "Revenue", value: (p) => p.revenue, render: (p) => money(p.revenue), numeric: true },
      { id: "stock", label: "In stock", value: (p) => p.quantity_on_hand, numeric: true },
    ],
    [money, onOpenProduct],
  );
  const slowColumns = useMemo<Column<SlowMover>[]>(
    () => [
      {
        id: "name",
        label: "Product",
        value: (p) => p.product_name,
        render: (p) => <ProductLink id={p.product_id} name={p.product_name} onOpen={onOpenProduct} />,
      },
      { id: "vendor", label: "Vendor", value: (p) => p.vendor },
      { id: "stock", label: "In stock", value: (p) => p.quantity_on_hand, numeric: true },
      {
        id: "last_sale",
        label: "Last sale",
        value: (p) => p.last_sale_at,
        render: (p) =>
          p.last_sale_at
            ? new Date(p.last_sale_at).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" })
            : "Never",
      },
      { id: "at_price", label: "At price", value: (p) => p.value_at_price, render: (p) => money(p.value_at_price), numeric: true },
      ...(cost
        ? [
            {
              id: "at_cost",
              label: "At cost",
              value: (p: SlowMover) => p.value_at_cost,
              render: (p: SlowMover) => money(p.value_at_cost),
              numeric: true,
            },
          ]
        : []),
    ],
    [money, cost, onOpenProduct],
  );

  const csv = () => {
    if (tab === "top" && top.data) {
      const header = ["barcode", "product_name", "vendor", "units", "revenue", "quantity_on_hand"];
      const rows = top.data.products.map((p) => ({
        barcode: p.barcode,
        product_name: p.product_name,
        vendor: p.vendor,
        units: String(p.units),
        revenue: amountCell(p.revenue),
        quantity_on_hand: String(p.quantity_on_hand),
      }));
      downloadCsv(`top-sellers-${range.from}-${range.to}.csv`, toCsv(header, rows));
    } else if (tab === "slow" && slow.data) {
      const header = [
        "barcode",
        "product_name",
        "vendor",
        "quantity_on_hand",
        "last_sale_at",
        "value_at_price",
        ...(cost ? ["value_at_cost"] : []),
      ];
      const rows = slow.data.products.map((p) => ({
        barcode: p.barcode,
        product_name: p.product_name,
        vendor: p.vendor,
        quantity_on_hand: String(p.quantity_on_hand),
        last_sale_at: p.last_sale_at ?? "",
        value_at_price: amountCell(p.value_at_price),
        value_at_cost: amountCell(p.value_at_cost),
      }));
      downloadCsv(`slow-movers-${days}-days.csv`, toCsv(header, rows));
    }
  };

  return (
    <ReportCard
      title={tab === "top" ? "Top sellers" : "Slow movers"}
      testId="report-products"
      loading={query.isPending}
      error={query.error}
      onCsv={query.data ? csv : undefined}
      controls={
        <>
          <Choice
            label="List"
            value={tab}
            onChange={setTab}
            options={[
              { value: "top", label: "Top sellers" },
              { value: "slow", label: "Slow movers" },
            ]}
          />
          {tab === "slow" ? (
            <Choice
              label="No sale in"
              value={days}
              onChange={setDays}
              options={SLOW_MOVER_DAYS.map((d) => ({ value: d, label: `${d} days` }))}
            />
          ) : null}
        </>
      }
    >
      {tab === "top" && top.data ? (
        <DataTable
          caption={`Top sellers, ${range.from} to ${range.to}`}
          hideCaption
          columns={topColumns}
          rows={top.data.products}
          rowKey={(p) => p.product_id}
          sortable
          initialSort={{ id: "units", desc: true }}
          empty="No sales in this range"
          testId="top-sellers-table"
        />
      ) : null}
      {tab === "slow" && slow.data ? (
        <>
          <p className="text-sm">
            {slow.data.totals.products.toLocaleString("en-US")} products, {slow.data.totals.units.toLocaleString("en-US")} units:{" "}
            <span className="font-semibold">{money(slow.data.totals.value_at_price)}</span> at price
            {cost && slow.data.totals.value_at_cost !== null ? (
              <>
                , <span className="font-semibold">{money(slow.data.totals.value_at_cost)}</span> at cost
              </>
            ) : null}
          </p>
          <DataTable
            caption={`Products with stock and no sale in ${days} days`}
            hideCaption
            columns={slowColumns}
            rows={slow.data.products}
            rowKey={(p) => p.product_id}
            sortable
            initialSort={{ id: "at_price", desc: true }}
            empty="Every product with stock sold lately"
            testId="slow-movers-table"
          />
        </>
      ) : null}
    </ReportCard>
  );
}
