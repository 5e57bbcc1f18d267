import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import type { MarketQuote } from "../../../../contract/market-views";
import type { Product } from "../../../../contract/products";
import { NO_DETAILS } from "../../../../contract/rules";
import { useMarketQuotes } from "../../../lib/market-quotes";
import { routes, SLOW } from "../../../test/price-fakes";
import { fakeApi } from "../../../test/product-fakes";
import { startTestServer } from "../../../test/test-server";
import { ProductStore, ProductStoreProvider } from "../../products";
import { todayIn } from "../../reports";
import { useMoney } from "../../settings";
import { MarketText } from "./market-cell";
import { ProductCard } from "./product-card";

const today = todayIn("UTC");
const quote = (product_id: number, market: number, checked_on = today): MarketQuote => ({
  product_id,
  market,
  currency: "USD",
  day: checked_on,
  checked_on,
});

/** Rows as the table gives them their market prices: a page of ids asked for at once. */
function Rows({ pages }: { pages: number[][] }) {
  const marketOf = useMarketQuotes(pages);
  const money = useMoney();
  const [, setTick] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setTick((t) => t + 1)}>
        Render again
      </button>
      {pages.flat().map((id) => (
        <div key={id} data-testid={`row-${id}`}>
          <MarketText market={marketOf(id)} money={money} today={today} />
          <MarketText market={marketOf(id)} money={money} today={today} compact />
        </div>
      ))}
    </>
  );
}

function renderRows(pages: number[][]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <Rows pages={pages} />
    </QueryClientProvider>,
  );
}

const row = (id: number) => screen.getByTestId(`row-${id}`);

describe("the market price beside a row's price", () => {
  it("asks once per page of rows; shows each price and its age, a dash for a product without one", async () => {
    const app = routes({
      "GET /api/prices/market": (req) => {
        const ids = (req.query.get("ids") ?? "").split(",").map(Number);
        const known = [quote(1, 1234), quote(3, 500, "2020-01-01"), quote(11, 99)];
        return [200, { quotes: known.filter((q) => ids.includes(q.product_id)) }];
      },
    });
    const server = await startTestServer(app.handle);
    try {
      renderRows([
        [1, 2, 3],
        [11, 12],
      ]);
      // Until the answer: dots, said as loading.
      expect(within(row(1)).getByText("Market price loading")).toBeInTheDocument();
      await waitFor(() => expect(row(1)).toHaveTextContent("$12.34today"), SLOW);
      expect(within(row(1)).getByText("today").closest("time")).toHaveAttribute("dateTime", today);
      // The compact line, under the price on a phone's table.
      expect(row(1)).toHaveTextContent("Mkt $12.34, seen today");
      expect(row(2)).toHaveTextContent("—No market price");
      expect(row(3)).toHaveTextContent(/\$5\.00[\d,]+ days ago/);
      await waitFor(() => expect(row(11)).toHaveTextContent("$0.99today"), SLOW);
      screen.getByRole("button", { name: "Render again" }).click();
      await waitFor(() => expect(row(12)).toHaveTextContent("No market price"), SLOW);
      expect(app.seen.filter((r) => r.path === "/api/prices/market").map((r) => r.query.get("ids"))).toEqual(["1,2,3", "11,12"]);
    } finally {
      await server.close();
    }
  });

  it("asks only for where the view settles: pages passed on the way are not asked for; a page known shows at once", async () => {
    const app = routes({
      "GET /api/prices/market": (req) => {
        const ids = (req.query.get("ids") ?? "").split(",").map(Number);
        return [200, { quotes: ids.map((id) => quote(id, id * 100)) }];
      },
    });
    const server = await startTestServer(app.handle);
    try {
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const view = (pages: number[][]) => (
        <QueryClientProvider client={queryClient}>
          <Rows pages={pages} />
        </QueryClientProvider>
      );
      const { rerender } = render(view([[1]]));
      await waitFor(() => expect(row(1)).toHaveTextContent("$1.00today"), SLOW);
      // A fast scroll: three pages in a moment, then it stops on the last.
      rerender(view([[2]]));
      rerender(view([[3]]));
      rerender(view([[4]]));
      await waitFor(() => expect(row(4)).toHaveTextContent("$4.00today"), SLOW);
      // Back to the first: known, shown without asking again.
      rerender(view([[1]]));
      expect(row(1)).toHaveTextContent("$1.00today");
      // A page of rows known from other pages (a search narrowing the rows) shows them at once, then asks for itself.
      rerender(view([[4, 1]]));
      expect(row(4)).toHaveTextContent("$4.00today");
      expect(row(1)).toHaveTextContent("$1.00today");
      await waitFor(() => expect(app.seen.filter((r) => r.path === "/api/prices/market")).toHaveLength(3), SLOW);
      const asked = app.seen.filter((r) => r.path === "/api/prices/market").map((r) => r.query.get("ids"));
      expect(asked).toEqual(["1", "4", "4,1"]);
    } finally {
      await server.close();
    }
  });

  it("says when the market prices could not be loaded", async () => {
    const server = await startTestServer(routes({ "GET /api/prices/market": () => [500, { error: "Database unavailable" }] }).handle);
    try {
      renderRows([[5]]);
      await waitFor(() => expect(row(5)).toHaveTextContent("?Market price not loaded"), SLOW);
    } finally {
      await server.close();
    }
  });
});

describe("a product card's market price", () => {
  const product: Product = {
    id: 1,
    barcode: "0123456789012",
    product_name: "Charizard",
    vendor: "Pokemon",
    release_year: 1999,
    quantity_on_hand: 1,
    ...NO_DETAILS,
    price: 30_000,
    photos: [],
    is_active: true,
    version: 1,
    revision: 1,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
  const renderCard = (market: MarketQuote | null) =>
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ProductStoreProvider store={new ProductStore(fakeApi().api)}>
          <ProductCard
            product={product}
            canManageProducts
            onEdit={() => {}}
            onToggleStatus={() => {}}
            onHistory={() => {}}
            money={(c) => (c === null ? "—" : `$${(c / 100).toFixed(2)}`)}
            market={market}
            today={today}
          />
        </ProductStoreProvider>
      </QueryClientProvider>,
    );

  it("shows under the price when a feed prices the product, and nothing when none does", () => {
    const { unmount } = renderCard(quote(1, 32_000));
    expect(screen.getByTestId("card-market")).toHaveTextContent("$320.00 · seen today");
    unmount();
    renderCard(null);
    expect(screen.queryByTestId("card-market")).toBeNull();
  });
});
