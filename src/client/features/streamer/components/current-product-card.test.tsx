import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render as renderIn, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Product } from "../../../../contract/products";
import { NO_DETAILS } from "../../../../contract/rules";
import { fakeMarket, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { todayIn } from "../../reports";
import { CurrentProductCard } from "./current-product-card";

/** The card reads the shop's currency through the query client (USD until the server answers). */
const render = (ui: ReactElement) => renderIn(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

const product: Product = {
  id: 7,
  barcode: "2000000000008",
  product_name: "Topps Chrome 2024 Hobby Box",
  vendor: "Topps",
  release_year: 2024,
  quantity_on_hand: 0,
  ...NO_DETAILS,
  photos: [],
  is_active: true,
  version: 1,
  revision: 1,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

function renderCard(stock: number, overrides: Partial<Product> = {}) {
  const onSold = vi.fn();
  const onAdd = vi.fn();
  render(<CurrentProductCard product={{ ...product, ...overrides }} stock={stock} canUpdate onSold={onSold} onAdd={onAdd} />);
  return { onSold, onAdd };
}

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("CurrentProductCard", () => {
  it("shows the product's fields", () => {
    renderCard(12);
    expect(screen.getByText("Topps Chrome 2024 Hobby Box")).toBeInTheDocument();
    expect(screen.getByText("Topps")).toBeInTheDocument();
    expect(screen.getByText("2000000000008")).toBeInTheDocument();
    expect(screen.getByText("2024")).toBeInTheDocument();
    expect(screen.getByTestId("current-stock")).toHaveTextContent("12");
    expect(screen.queryByText("Low stock")).toBeNull();
    expect(screen.queryByTestId("current-price")).toBeNull();
  });

  it("shows a slab's price large, with its grade and set", () => {
    renderCard(1, { price: 45000, grader: "PSA", grade: "10", set_name: "2023 Prizm", card_number: "136" });
    expect(screen.getByTestId("current-price")).toHaveTextContent("$450.00");
    expect(screen.getByTestId("current-price")).toHaveClass("text-4xl");
    expect(screen.getByTestId("current-details")).toHaveTextContent("PSA 10 · 2023 Prizm #136");
  });

  it("disables SOLD at stock 0 or less, ADD stays", async () => {
    const { onSold, onAdd } = renderCard(0);
    expect(screen.getByRole("button", { name: "SOLD (-1)" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "ADD (+1)" })).toBeEnabled();
    await userEvent.click(screen.getByRole("button", { name: "ADD (+1)" }));
    expect(onAdd).toHaveBeenCalledOnce();
    expect(onSold).not.toHaveBeenCalled();
  });

  it("flags low stock at 5 and below", async () => {
    const { onSold } = renderCard(5);
    expect(screen.getByText("Low stock")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "SOLD (-1)" }));
    expect(onSold).toHaveBeenCalledOnce();
  });

  it("disables both buttons on a disabled product with the spec's warning", () => {
    renderCard(8, { is_active: false });
    expect(screen.getByRole("button", { name: "SOLD (-1)" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "ADD (+1)" })).toBeDisabled();
    expect(screen.getByRole("alert")).toHaveTextContent("This product is currently disabled and cannot be used during streams.");
  });

  it("counts the taps waiting for the server, and shows what it is given under the buttons", () => {
    render(
      <CurrentProductCard product={product} stock={7} canUpdate onSold={vi.fn()} onAdd={vi.fn()} pendingTaps={3}>
        <p>Sold 1: Topps Chrome 2024 Hobby Box (pending)</p>
      </CurrentProductCard>,
    );
    expect(screen.getByTestId("pending-taps")).toHaveTextContent("3 pending");
    expect(screen.getByText("Sold 1: Topps Chrome 2024 Hobby Box (pending)")).toBeInTheDocument();
  });

  it("shows the market price and its age beside the price, and nothing when no feed prices the product", async () => {
    const day = todayIn("UTC");
    const latest = {
      feed_id: 1,
      feed_name: "TCGplayer",
      day,
      checked_on: day,
      finish: "normal" as const,
      currency: "USD",
      market: 1234,
      low: null,
      mid: null,
      high: null,
      direct_low: null,
      by_condition: null,
    };
    const app = routes({
      "GET /api/products/7/market-prices": () => [200, fakeMarket(7, { latest, history: [latest] })],
      "GET /api/products/8/market-prices": () => [200, fakeMarket(8)],
    });
    server = await startTestServer(app.handle);
    renderCard(3, { price: 1500 });
    expect(await screen.findByTestId("current-market", undefined, SLOW)).toHaveTextContent("Market $12.34 · seen today");
    expect(screen.getByTestId("current-price")).toHaveTextContent("$15.00");

    const client = new QueryClient();
    renderIn(
      <QueryClientProvider client={client}>
        <CurrentProductCard product={{ ...product, id: 8, price: 900 }} stock={3} canUpdate onSold={vi.fn()} onAdd={vi.fn()} />
      </QueryClientProvider>,
    );
    // Once its market (none) has arrived, the second card shows no market line.
    await waitFor(() => expect(client.getQueryCache().find({ queryKey: ["prices", "market", 8] })?.state.status).toBe("success"), SLOW);
    expect(screen.getAllByTestId("current-market")).toHaveLength(1);
  });
});
