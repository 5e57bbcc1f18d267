import { useQuery } from "@tanstack/react-query";
import { amountCell, downloadCsv, toCsv } from "../../csv";
import { useMoney } from "../../settings";
import { reorderListQuery } from "../api/get-reorder-list";
import { ReportCard } from "./report-card";

/** "To reorder": active products at or under their reorder point, by vendor, with a purchase list to download. */
export function ReorderSection({ cost, onOpenProduct, today }: { cost: boolean; onOpenProduct: (id: number) => void; today: string }) {
  const money = useMoney();
  const query = useQuery(reorderListQuery());
  const vendors = query.data?.vendors;
  const csv = () => {
    if (!vendors) return;
    const header = [
      "vendor",
      "barcode",
      "product_name",
      "quantity_on_hand",
      "reorder_point",
      "order_quantity",
      ...(cost ? ["unit_cost", "line_cost"] : []),
    ];
    const rows = vendors.flatMap((v) =>
      v.products.map((p) => ({
        vendor: v.vendor,
        barcode: p.barcode,
        product_name: p.product_name,
        quantity_on_hand: String(p.quantity_on_hand),
        reorder_point: String(p.reorder_point),
        order_quantity: String(p.suggested_quantity),
        unit_cost: amountCell(p.cost),
        line_cost: amountCell(p.cost === null ? null : p.cost * p.suggested_quantity),
      })),
    );
    downloadCsv(`purchase-list-${today}.csv`, toCsv(header, rows));
  };
  const count = vendors?.reduce((n, v) => n + v.products.length, 0) ?? 0;
  return (
    <ReportCard
      title="To reorder"
      testId="report-reorder"
      loading={query.isPending}
      error={query.error}
      onCsv={count > 0 ? csv : undefined}
      csvLabel="Purchase list"
    >
      {vendors && count === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">Nothing is at or under its reorder point.</p>
      ) : null}
      {vendors && count > 0 ? (
        <section
          className="flex max-h-72 flex-col gap-2 overflow-auto"
          aria-label="Products to reorder, by vendor"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
          tabIndex={0}
        >
          {vendors.map((v) => (
            <div key={v.vendor}>
              <h3 className="text-sm font-semibold">
                {v.vendor} <span className="font-normal text-gray-700 dark:text-gray-300">({v.products.length})</span>
              </h3>
              <ul className="flex flex-col divide-y divide-gray-100 text-sm dark:divide-gray-800">
                {v.products.map((p) => (
                  <li key={p.product_id} className="flex items-center gap-2 py-1" data-testid="reorder-item">
                    <button
                      type="button"
                      className="mr-auto text-left font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
                      onClick={() => onOpenProduct(p.product_id)}
                    >
                      {p.product_name}
                    </button>
                    <span className="tabular-nums">
                      {p.quantity_on_hand} in stock, reorder at {p.reorder_point}
                    </span>
                    <span className="tabular-nums font-semibold">order {p.suggested_quantity}</span>
                    {cost && p.cost !== null ? <span className="tabular-nums">{money(p.cost * p.suggested_quantity)}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ) : null}
    </ReportCard>
  );
}
