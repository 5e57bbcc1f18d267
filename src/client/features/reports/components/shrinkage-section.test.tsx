import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ShrinkageAnswer } from "../../../../contract/stock-takes";
import { routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { ShrinkageSection } from "./shrinkage-section";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const range = { from: "2026-03-01", to: "2026-03-31", by: "week" as const };
const answer = (cost: boolean): ShrinkageAnswer => {
  const c = (n: number) => (cost ? n : null);
  return {
    timezone: "Europe/Berlin",
    from: range.from,
    to: range.to,
    by: "week",
    rows: [
      {
        period: "2026-03-02",
        stock_takes: 1,
        difference: -3,
        missing: 4,
        extra: 1,
        value_at_cost: c(-550),
        missing_at_cost: c(700),
        extra_at_cost: c(150),
      },
      {
        period: "2026-03-16",
        stock_takes: 2,
        difference: 2,
        missing: 0,
        extra: 2,
        value_at_cost: c(300),
        missing_at_cost: c(0),
        extra_at_cost: c(300),
      },
    ],
    totals: {
      stock_takes: 3,
      difference: -1,
      missing: 4,
      extra: 3,
      value_at_cost: c(-250),
      missing_at_cost: c(700),
      extra_at_cost: c(450),
    },
  };
};

async function serve(table: Parameters<typeof routes>[0]): Promise<SeenRequest[]> {
  const app = routes(table);
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection(cost: boolean) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ShrinkageSection range={range} dark={false} cost={cost} />
    </QueryClientProvider>,
  );
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .map((r) =>
      within(r)
        .queryAllByRole(r.querySelector("th") ? "columnheader" : "cell")
        .map((c) => c.textContent),
    );

describe("shrinkage in Reports", () => {
  it("shows per week the stock takes approved, units missing and extra, the net and its value at cost, with totals", async () => {
    const seen = await serve({ "GET /api/reports/shrinkage": () => [200, answer(true)] });
    renderSection(true);
    const section = await screen.findByRole("region", { name: "Shrinkage" }, SLOW);
    expect(await within(section).findByTestId("shrinkage-totals", undefined, SLOW)).toBeInTheDocument();
    expect(within(section).getByTestId("shrinkage-stock-takes")).toHaveTextContent("3");
    expect(within(section).getByTestId("shrinkage-missing")).toHaveTextContent("4");
    expect(within(section).getByTestId("shrinkage-extra")).toHaveTextContent("3");
    expect(within(section).getByTestId("shrinkage-net")).toHaveTextContent("-1");
    expect(within(section).getByText("$7.00 at cost")).toBeInTheDocument();
    expect(within(section).getByText("-$2.50 at cost")).toBeInTheDocument();
    // The numbers show as a table first, named for screen readers; the chart is a press away.
    const table = within(section).getByRole("table", { name: "Stock take differences approved per week, 2026-03-01 to 2026-03-31" });
    expect(rowsOf(table)).toEqual([
      ["Week of", "Stock takes", "Missing", "Extra", "Net units", "Missing at cost", "Extra at cost", "Net at cost"],
      ["Mar 2", "1", "4", "1", "-3", "$7.00", "$1.50", "-$5.50"],
      ["Mar 16", "2", "0", "2", "+2", "$0.00", "$3.00", "$3.00"],
    ]);
    expect(within(section).getByRole("button", { name: "Numbers as a table" })).toHaveAttribute("aria-pressed", "true");
    expect(within(section).getByRole("button", { name: "CSV: download Shrinkage as CSV" })).toBeInTheDocument();
    const call = seen.find((r) => r.path === "/api/reports/shrinkage");
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ from: "2026-03-01", to: "2026-03-31", by: "week" });
  });

  it("shows units only to those who do not see cost: no cost columns, no empty cells", async () => {
    await serve({ "GET /api/reports/shrinkage": () => [200, answer(false)] });
    renderSection(false);
    const table = await screen.findByTestId("shrinkage-table", undefined, SLOW);
    expect(rowsOf(table)).toEqual([
      ["Week of", "Stock takes", "Missing", "Extra", "Net units"],
      ["Mar 2", "1", "4", "1", "-3"],
      ["Mar 16", "2", "0", "2", "+2"],
    ]);
    const section = screen.getByRole("region", { name: "Shrinkage" });
    expect(section).not.toHaveTextContent(/at cost\b.*\$|\$/);
    expect(within(section).getByText("Values at cost are shown to managers.")).toBeInTheDocument();
  });

  it("says when no stock take differences were approved in the range", async () => {
    await serve({
      "GET /api/reports/shrinkage": () => [
        200,
        {
          ...answer(true),
          rows: [],
          totals: { stock_takes: 0, difference: 0, missing: 0, extra: 0, value_at_cost: 0, missing_at_cost: 0, extra_at_cost: 0 },
        },
      ],
    });
    renderSection(true);
    expect(await screen.findByText("No stock take differences approved in this range.", undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.queryByRole("button", { name: /CSV/ })).toBeNull();
  });

  it("says a failed report's error in its place", async () => {
    await serve({ "GET /api/reports/shrinkage": () => [403, { error: "You don't have permission to do that" }] });
    renderSection(true);
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("You don't have permission to do that");
  });

  it("is reached by keyboard: the table's region takes focus and the chart switch is a button", async () => {
    await serve({ "GET /api/reports/shrinkage": () => [200, answer(true)] });
    renderSection(true);
    await screen.findByTestId("shrinkage-table", undefined, SLOW);
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole("button", { name: "CSV: download Shrinkage as CSV" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Numbers as a table" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("region", { name: /Stock take differences approved per week/ })).toHaveFocus();
  });
});
