import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { UnderMarketProduct } from "../../../../contract/market-views";
import { routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { todayIn } from "../../reports";
import { UNDER_MARKET_PAGE } from "../api/under-market";
import { UnderMarketSection } from "./under-market-section";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const today = todayIn("UTC");

function under(id: number, fields: Partial<UnderMarketProduct> = {}): UnderMarketProduct {
  return {
    product_id: id,
    barcode: `30000000000${id}`,
    product_name: `Card ${id}`,
    quantity_on_hand: 1,
    price: 1000,
    market: 1100,
    checked_on: today,
    under_by: 100,
    under_percent: 9.1,
    at_stake: 100,
    ...fields,
  };
}

async function serve(products: UnderMarketProduct[]) {
  const app = routes({
    "GET /api/prices/under-market": (req) => {
      const offset = Number(req.query.get("offset"));
      const limit = Number(req.query.get("limit"));
      const total_at_stake = products.reduce((n, p) => n + p.at_stake, 0);
      return [200, { products: products.slice(offset, offset + limit), total: products.length, total_at_stake }];
    },
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection(onOpenProduct?: (id: number) => void) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <UnderMarketSection onOpenProduct={onOpenProduct} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const calls = (seen: SeenRequest[]) => seen.filter((r) => r.path === "/api/prices/under-market");

describe("UnderMarketSection", () => {
  it("lists each product's price, market and its age, the gap and the money at stake, each a link to the product", async () => {
    await serve([
      under(7, {
        product_name: "Charizard",
        quantity_on_hand: 3,
        price: 20_000,
        market: 30_000,
        under_by: 10_000,
        under_percent: 33.3,
        at_stake: 30_000,
      }),
      under(8, { product_name: "Pikachu", checked_on: "2000-01-01" }),
    ]);
    const opened: number[] = [];
    const user = renderSection((id) => opened.push(id));
    const rows = await screen.findAllByTestId("under-market-row", undefined, SLOW);
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    expect(
      within(first)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["$200.00", "$300.00seen today", "$100.0033.3%", "3", "$300.00"]);
    expect(screen.getByText("2 products under market, $301.00 at stake.")).toBeInTheDocument();
    const link = within(first).getByRole("link", { name: "Charizard" });
    expect(link).toHaveAttribute("href", "/inventory/products/7");
    await user.click(link);
    expect(opened).toEqual([7]);
    expect(within(rows[1] as HTMLElement).getByText("days ago", { exact: false })).toBeInTheDocument();
  });

  it("shows more a page at a time", async () => {
    const seen = await serve(Array.from({ length: UNDER_MARKET_PAGE + 1 }, (_, i) => under(i + 1)));
    const user = renderSection();
    expect(await screen.findAllByTestId("under-market-row", undefined, SLOW)).toHaveLength(UNDER_MARKET_PAGE);
    expect(screen.getByText(`Showing ${UNDER_MARKET_PAGE} of ${UNDER_MARKET_PAGE + 1}`)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(screen.getAllByTestId("under-market-row")).toHaveLength(UNDER_MARKET_PAGE + 1), SLOW);
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
    expect(calls(seen).map((r) => r.query.get("offset"))).toEqual(["0", String(UNDER_MARKET_PAGE)]);
  });

  it("says when nothing is under market", async () => {
    await serve([]);
    renderSection();
    expect(await screen.findByText("No product is priced under its market price.", undefined, SLOW)).toBeInTheDocument();
  });

  it("says when the list could not be loaded, and tries again", async () => {
    let fail = true;
    const app = routes({
      "GET /api/prices/under-market": () =>
        fail ? [500, { error: "Database unavailable" }] : [200, { products: [], total: 0, total_at_stake: 0 }],
    });
    server = await startTestServer(app.handle);
    const user = renderSection();
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("Database unavailable");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByText("No product is priced under its market price.", undefined, SLOW)).toBeInTheDocument();
  });
});
