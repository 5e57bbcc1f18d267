import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { BOUGHT_IN_MARGIN_RULE, type BoughtInMarginReport, type BuysReport, type CreditReport } from "../../../../contract/counter-reports";
import { routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { CounterSection } from "./counter-section";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const range = { from: "2026-03-01", to: "2026-03-31", by: "week" as const };
const buys: BuysReport = {
  timezone: "UTC",
  from: range.from,
  to: range.to,
  by: "week",
  buckets: [
    { start: "2026-02-23", trade_ins: 1, units: 2, cash: 600, credit: 0 },
    { start: "2026-03-02", trade_ins: 0, units: 0, cash: 0, credit: 0 },
    { start: "2026-03-09", trade_ins: 1, units: 2, cash: 0, credit: 800 },
  ],
  totals: { trade_ins: 2, units: 4, cash: 600, credit: 800 },
};
const margin = (cost: boolean): BoughtInMarginReport => ({
  timezone: "UTC",
  from: range.from,
  to: range.to,
  rule: BOUGHT_IN_MARGIN_RULE,
  products: [
    {
      product_id: 1,
      barcode: "2000000000011",
      product_name: "Ruby Dragon",
      units: 2,
      revenue: 1800,
      cost: cost ? 800 : null,
      margin: cost ? 1000 : null,
      paid_per_unit: cost ? 400 : null,
    },
  ],
  totals: { units: 2, revenue: 1800, cost: cost ? 800 : null, margin: cost ? 1000 : null },
});
const credit: CreditReport = {
  timezone: "UTC",
  from: range.from,
  to: range.to,
  outstanding: 550,
  customers_with_balance: 2,
  movements: { trade_in: 800, order: -500, adjustment: 250, expiry: 0 },
};

async function serve(table: Parameters<typeof routes>[0]): Promise<SeenRequest[]> {
  const app = routes(table);
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection(cost: boolean) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CounterSection range={range} cost={cost} />
    </QueryClientProvider>,
  );
}

describe("the counter's reports", () => {
  it("shows buys per week, the margin on cards bought in with its rule, and the credit owed", async () => {
    const seen = await serve({
      "GET /api/reports/buys": () => [200, buys],
      "GET /api/reports/bought-in-margin": () => [200, margin(true)],
      "GET /api/reports/credit": () => [200, credit],
    });
    renderSection(true);
    expect(await screen.findByTestId("buys-totals", undefined, SLOW)).toHaveTextContent(
      "2 trade-ins accepted, 4 cards: $6.00 in cash and $8.00 in store credit.",
    );
    // Weeks with no trade-in are left out of the table.
    const buysRows = within(screen.getByTestId("buys-table")).getAllByRole("row");
    expect(buysRows.slice(1).map((r) => r.textContent)).toEqual(["2026-02-2312$6.00$0.00", "2026-03-0912$0.00$8.00"]);
    expect(await screen.findByTestId("margin-totals", undefined, SLOW)).toHaveTextContent("2 sold for $18.00, paid $8.00: margin $10.00");
    expect(screen.getByTestId("margin-rule")).toHaveTextContent("whose product came in through at least one accepted trade-in");
    expect(within(screen.getByTestId("margin-table")).getByRole("columnheader", { name: /Margin/ })).toBeInTheDocument();
    expect(await screen.findByTestId("credit-outstanding", undefined, SLOW)).toHaveTextContent("$5.50");
    expect(screen.getByText("Owed now to 2 customers (the sum of their balances).")).toBeInTheDocument();
    expect(screen.getByTestId("credit-movements")).toHaveTextContent("Spent on orders-$5.00");
    const buysCall = seen.find((r) => r.path === "/api/reports/buys");
    expect(Object.fromEntries(buysCall?.query ?? [])).toEqual({ from: "2026-03-01", to: "2026-03-31", by: "week" });
  });

  it("says when there is nothing, and leaves cost and margin out for inventory users", async () => {
    await serve({
      "GET /api/reports/buys": () => [
        200,
        { ...buys, buckets: buys.buckets.map((b) => ({ ...b, trade_ins: 0 })), totals: { trade_ins: 0, units: 0, cash: 0, credit: 0 } },
      ],
      "GET /api/reports/bought-in-margin": () => [200, margin(false)],
      "GET /api/reports/credit": () => [200, { ...credit, outstanding: 0, customers_with_balance: 0 }],
    });
    renderSection(false);
    expect(await screen.findByText("No trade-ins accepted in this range", undefined, SLOW)).toBeInTheDocument();
    expect(await screen.findByTestId("margin-totals", undefined, SLOW)).toHaveTextContent(
      "2 sold for $18.00 (cost and margin are shown to managers)",
    );
    expect(within(screen.getByTestId("margin-table")).queryByRole("columnheader", { name: /Margin/ })).toBeNull();
    expect(await screen.findByText("No customer has store credit.", undefined, SLOW)).toBeInTheDocument();
  });

  it("says a failed report's error in its place", async () => {
    await serve({
      "GET /api/reports/buys": () => [403, { error: "You don't have permission to do that" }],
      "GET /api/reports/bought-in-margin": () => [
        200,
        { ...margin(true), products: [], totals: { units: 0, revenue: 0, cost: 0, margin: 0 } },
      ],
      "GET /api/reports/credit": () => [200, credit],
    });
    renderSection(true);
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("You don't have permission to do that");
    expect(await screen.findByText("No card bought in was sold in this range", undefined, SLOW)).toBeInTheDocument();
  });
});
