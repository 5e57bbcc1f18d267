import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Product } from "../../../../contract/products";
import { FIRST_PAGE_PRODUCTS } from "../../../../contract/rules";
import { fakeEvent as event, fakeProduct as product } from "../../../test/product-fakes";
import { ProductStore } from "./product-store";
import { productStoreApi } from "./product-store-api";
import { ProductStoreProvider, useProductList } from "./product-store-provider";

/** A fake server behind fetch: the catalogue, its revision, and every request it was sent. */
function fakeServer(count: number) {
  let revision = count;
  const products = new Map<number, Product>();
  for (let id = 1; id <= count; id++) products.set(id, product(id, id));
  const requests: string[] = [];
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json", ...headers } });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://shop.test");
    requests.push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
    if (url.pathname !== "/api/products") return json({ error: "Not found" });
    const since = url.searchParams.get("since");
    const limit = url.searchParams.get("limit");
    const all = [...products.values()].reverse();
    if (limit !== null) return json(all.slice(0, Number(limit)), { "X-Catalogue-Revision": String(revision) });
    if (since === null) return json(all, { "X-Catalogue-Revision": String(revision) });
    return json({ revision, products: [...products.values()].filter((p) => p.revision > Number(since)) });
  });
  /** Another user's change: committed on the server, and its live event. */
  const change = (id: number, quantity: number) => {
    revision += 1;
    const next = { ...(products.get(id) as Product), quantity_on_hand: quantity, revision };
    products.set(id, next);
    return event("quantity_changed", { product: next, quantity_on_hand: quantity });
  };
  const listRequests = () => requests.filter((r) => r === "GET /api/products?catch_up=true").length;
  return { fetch, requests, change, listRequests };
}

function Stock() {
  const { products, pending } = useProductList();
  if (pending) return <p>Loading products...</p>;
  return (
    <ul>
      {products.map((p) => (
        <li key={p.id}>
          {p.product_name}: {p.quantity_on_hand}
        </li>
      ))}
    </ul>
  );
}

function renderStock(store: ProductStore) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProductStoreProvider store={store}>
        <Stock />
      </ProductStoreProvider>
    </QueryClientProvider>,
  );
}

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer(40);
  vi.stubGlobal("fetch", server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

describe("the product store against a server (fetch counted)", () => {
  it("20 live changes of other products: no list download, the new stock shows", async () => {
    const store = new ProductStore(productStoreApi);
    renderStock(store);
    expect(await screen.findByText("Card 7: 10")).toBeInTheDocument();
    expect(server.listRequests()).toBe(1);

    act(() => {
      for (let i = 1; i <= 20; i++) store.applyEvent(server.change(i, 100 + i));
    });
    expect(screen.getByText("Card 7: 107")).toBeInTheDocument();
    expect(screen.getByText("Card 20: 120")).toBeInTheDocument();
    expect(screen.getByText("Card 21: 10")).toBeInTheDocument();
    // The first page is asked for first, then the whole list.
    expect(server.requests).toEqual([`GET /api/products?limit=${FIRST_PAGE_PRODUCTS}`, "GET /api/products?catch_up=true"]);
  });

  it("a reconnect catches up with ?since= the list's revision: changes missed meanwhile show", async () => {
    const store = new ProductStore(productStoreApi);
    renderStock(store);
    await screen.findByText("Card 3: 10");
    server.change(3, 1);
    server.change(5, 2);
    act(() => store.resync());
    expect(await screen.findByText("Card 3: 1")).toBeInTheDocument();
    expect(screen.getByText("Card 5: 2")).toBeInTheDocument();
    expect(server.requests).toEqual([
      `GET /api/products?limit=${FIRST_PAGE_PRODUCTS}`,
      "GET /api/products?catch_up=true",
      "GET /api/products?since=40",
    ]);
  });
});
