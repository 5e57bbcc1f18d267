import { RefreshCw } from "lucide-react";
import { useId } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText } from "../../../lib/http";
import { todayIn } from "../../reports";
import { useMoney, useSettings } from "../../settings";
import { useUnderMarket } from "../api/under-market";
import { ageText } from "../market-age";
import { Panel } from "./panel";
import { ProductLink } from "./product-link";
import { ShowMore } from "./show-more";

const count = (n: number) => n.toLocaleString("en-US");
const cell = "px-2 py-1.5 align-top";
const numeric = cn(cell, "text-right tabular-nums whitespace-nowrap");

/**
 * Products priced under their latest market price, the most money at stake first (the gap times
 * the stock): each links to its product, where the price is changed (or frozen on purpose).
 */
export function UnderMarketSection({ onOpenProduct }: { onOpenProduct?: (id: number) => void }) {
  const id = useId();
  const list = useUnderMarket();
  const money = useMoney();
  const { timezone } = useSettings();
  const today = todayIn(timezone);
  return (
    <Panel
      titleId={`${id}-title`}
      title="Priced under market"
      description="Active products whose price is under their latest market price, the most money at stake (the gap times the stock) first."
      testId="prices-under-market"
    >
      {list.isPending ? (
        <div className="flex items-center gap-2 p-2">
          <Spinner label="Loading products under market" />
          Loading products under market...
        </div>
      ) : list.isError ? (
        <div className="flex flex-col items-start gap-2 p-2">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(list.error)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : list.total === 0 ? (
        <p className="rounded-lg border border-gray-200 p-4 text-center text-sm dark:border-gray-700">
          No product is priced under its market price.
        </p>
      ) : (
        <>
          <p className="text-sm text-gray-700 dark:text-gray-300" aria-live="polite">
            {count(list.total)} {list.total === 1 ? "product" : "products"} under market, {money(list.totalAtStake)} at stake.
          </p>
          <section
            aria-label="Products priced under market"
            className="relative overflow-x-auto rounded-md border border-gray-200 dark:border-gray-700"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <table className="w-full border-collapse text-sm" data-testid="under-market-table">
              <caption className="sr-only">Products priced under market, the most money at stake first</caption>
              <thead className="bg-gray-50 dark:bg-gray-800">
                <tr>
                  <th scope="col" className={cn(cell, "text-left")}>
                    Product
                  </th>
                  <th scope="col" className={cn(numeric, "font-semibold")}>
                    Price
                  </th>
                  <th scope="col" className={cn(numeric, "font-semibold")}>
                    Market
                  </th>
                  <th scope="col" className={cn(numeric, "font-semibold")}>
                    Under by
                  </th>
                  <th scope="col" className={cn(numeric, "font-semibold")}>
                    Stock
                  </th>
                  <th scope="col" className={cn(numeric, "font-semibold")}>
                    At stake
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.products.map((p) => (
                  <tr key={p.product_id} data-testid="under-market-row" className="border-t border-gray-200 dark:border-gray-700">
                    <th scope="row" className={cn(cell, "min-w-36 text-left font-medium")}>
                      <ProductLink id={p.product_id} onOpen={onOpenProduct}>
                        {p.product_name}
                      </ProductLink>
                      <span className="block font-mono text-xs font-normal text-gray-700 dark:text-gray-300">{p.barcode}</span>
                    </th>
                    <td className={numeric}>{money(p.price)}</td>
                    <td className={numeric}>
                      {money(p.market)}
                      <span className="block text-xs text-gray-700 dark:text-gray-300">
                        seen <time dateTime={p.checked_on}>{ageText(p.checked_on, today)}</time>
                      </span>
                    </td>
                    <td className={numeric}>
                      {money(p.under_by)}
                      <span className="block text-xs text-gray-700 dark:text-gray-300">{p.under_percent}%</span>
                    </td>
                    <td className={numeric}>{count(p.quantity_on_hand)}</td>
                    <td className={cn(numeric, "font-semibold")}>{money(p.at_stake)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <ShowMore shown={list.products.length} total={list.total} list={list} />
        </>
      )}
    </Panel>
  );
}
