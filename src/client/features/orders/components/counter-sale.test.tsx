import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { Customer } from "../../../../contract/counter";
import type { CreateOrderBody, Order } from "../../../../contract/orders";
import { permissionsFor } from "../../../../contract/permissions";
import { fill, routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { fakeProduct } from "../../../test/product-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { ProductStoreProvider } from "../../products";
import { CounterSale } from "./counter-sale";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const ruby = fakeProduct(1, 1, { barcode: "2000000000011", product_name: "Ruby Dragon", price: 600, quantity_on_hand: 4 });
const opal = fakeProduct(2, 2, { barcode: "2000000000028", product_name: "Opal Knight", price: 250, quantity_on_hand: 1 });
const catalogue = [ruby, opal];
const ada: Customer = {
  id: 5,
  name: "Ada Park",
  email: "ada@example.com",
  phone: null,
  notes: null,
  created_at: "2026-03-01T10:00:00.000Z",
  erased_at: null,
  credit_balance: 700,
};

function orderOf(body: CreateOrderBody): Order {
  const lines = body.lines.map((l) => {
    const p = catalogue.find((c) => c.id === l.product_id) ?? ruby;
    return { product_id: p.id, barcode: p.barcode, product_name: p.product_name, quantity: l.quantity, unit_price: l.unit_price ?? null };
  });
  return {
    id: 31,
    channel: body.channel,
    external_id: body.external_id,
    status: "completed",
    lines,
    total: lines.reduce((s, l) => s + (l.unit_price ?? 0) * l.quantity, 0),
    note: null,
    created_at: "2026-03-14T10:00:00.000Z",
    created_by: "mia",
    cancelled_at: null,
    cancelled_by: null,
    customer_id: body.customer_id ?? null,
    payments: body.payments,
  };
}

/** `drop`: how many of the first sales the server takes and then drops the connection of, answering nothing (as a lost answer). */
async function serve(answers: Array<(body: CreateOrderBody) => [number, unknown]>, drop = 0) {
  let call = 0;
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "mia", role: "manager", created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor("manager")],
    "GET /api/products": () => [200, catalogue],
    "GET /api/customers": (req) => [200, (req.query.get("q") ?? "").toLowerCase().startsWith("ada") ? [ada] : []],
    "GET /api/customers/5/credit": () => [200, { balance: 0, entries: [] }],
    "POST /api/orders": (req) => {
      const answer = answers[Math.min(call, answers.length - 1)] as (body: CreateOrderBody) => [number, unknown];
      call++;
      return answer(req.body as CreateOrderBody);
    },
  });
  server = await startTestServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://test");
    if (url.pathname.startsWith("/api/products/barcode/")) {
      const product = catalogue.find((p) => p.barcode === url.pathname.split("/").pop());
      res.writeHead(product ? 200 : 404, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(product ?? { error: "Product not found" }));
    }
    if (req.method === "POST" && url.pathname === "/api/orders" && drop > 0) {
      drop--;
      app.seen.push({ method: "POST", path: url.pathname, query: url.searchParams, body: JSON.parse(body) });
      return res.destroy();
    }
    app.handle(req, res, body);
  });
  return app.seen;
}

function renderSale() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <ProductStoreProvider>
          <CounterSale onClose={() => {}} />
        </ProductStoreProvider>
      </AuthProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const posted = (seen: SeenRequest[]) =>
  seen.filter((r) => r.method === "POST" && r.path === "/api/orders").map((r) => r.body as CreateOrderBody);

describe("a counter sale", () => {
  // A whole sale typed key by key with three refusals on the way: 8 s alone, more beside other tests.
  it("sells scanned cards at their price to a customer, part in store credit, with one external id through refusals, then shows the credit left", {
    timeout: 45_000,
  }, async () => {
    const seen = await serve([
      () => [
        409,
        { error: "Order refused: 1 line cannot be filled", lines: [{ index: 1, barcode: opal.barcode, requested: 2, available: 1 }] },
      ],
      () => [409, { error: "Not enough store credit: the balance is 700 cents, 800 cents were asked for", balance: 700 }],
      (body) => [201, { order: orderOf(body) }],
    ]);
    const user = renderSale();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, `${ruby.barcode}{Enter}`);
    expect(await screen.findByTestId("sale-line", undefined, SLOW)).toHaveTextContent("Ruby Dragon");
    expect(screen.getByTestId("sale-announcement")).toHaveTextContent("Added Ruby Dragon at $6.00");
    expect(field).toHaveFocus();
    await user.type(field, `${opal.barcode}{Enter}`);
    await user.type(field, `${opal.barcode}{Enter}`);
    await waitFor(() => expect(screen.getByLabelText("Quantity of Opal Knight")).toHaveValue(2));
    expect(screen.getByTestId("sale-total")).toHaveTextContent("$11.00");
    await fill(user, screen.getByLabelText("Unit price of Ruby Dragon"), "5.50");
    expect(screen.getByTestId("sale-total")).toHaveTextContent("$10.50");

    // Store credit needs a customer.
    expect(screen.getByRole("radio", { name: "Store credit" })).toBeDisabled();
    await fill(user, screen.getByLabelText("Find a customer"), "ada");
    const found = await screen.findByRole("list", { name: "Customers found" }, SLOW);
    await user.click(within(found).getByRole("button", { name: /Ada Park/ }));
    expect(screen.getByTestId("sale-balance")).toHaveTextContent("Ada Park has $7.00 in store credit.");
    await user.click(screen.getByRole("radio", { name: "Split" }));
    expect(screen.getByLabelText("Store credit part")).toHaveValue("7.00");
    await user.selectOptions(screen.getByLabelText("The rest by"), "card");

    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent(
      "Not enough stock: Opal Knight (2 wanted, 1 in stock). Nothing was sold.",
    );
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    await waitFor(
      () => expect(screen.getByRole("alert")).toHaveTextContent("Not enough store credit: the balance is $7.00. Nothing was sold."),
      SLOW,
    );
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(await screen.findByTestId("sale-done", undefined, SLOW)).toHaveTextContent("Sale #31 complete");
    expect(screen.getByTestId("sale-credit-left")).toHaveTextContent("Ada Park has $0.00 in store credit left.");

    const bodies = posted(seen);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => b.external_id)).size).toBe(1);
    expect(bodies[2]).toEqual({
      channel: "counter",
      external_id: bodies[0]?.external_id,
      lines: [
        { product_id: 1, quantity: 1, unit_price: 550 },
        { product_id: 2, quantity: 2, unit_price: 250 },
      ],
      payments: [
        { method: "credit", amount: 700 },
        { method: "card", amount: 350 },
      ],
      customer_id: 5,
    });

    // The next sale is another order: a new external id.
    await user.click(screen.getByRole("button", { name: "New sale" }));
    const next = await screen.findByLabelText("Scan a barcode or search by name");
    await user.type(next, `${ruby.barcode}{Enter}`);
    await screen.findByTestId("sale-line", undefined, SLOW);
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    await screen.findByTestId("sale-done", undefined, SLOW);
    const last = posted(seen).at(-1);
    expect(last).toMatchObject({ payments: [{ method: "cash", amount: 600 }] });
    expect(last?.external_id).not.toBe(bodies[0]?.external_id);
    expect(last).not.toHaveProperty("customer_id");
  });

  it("after a dropped connection, Complete sale again sends the same external id (the server's idempotent path), and the sale completes once", async () => {
    const seen = await serve([(body) => [200, { order: orderOf(body) }]], 1);
    const user = renderSale();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await user.type(field, `${ruby.barcode}{Enter}`);
    await screen.findByTestId("sale-line", undefined, SLOW);
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent(
      "The connection dropped: the sale may or may not have gone through. Complete sale again: it is the same sale and is never made twice.",
    );
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(await screen.findByTestId("sale-done", undefined, SLOW)).toHaveTextContent("1 card sold for $6.00: $6.00 by card.");
    const bodies = posted(seen);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it("says what is missing before asking the server: no lines, or a price not typed", async () => {
    const seen = await serve([(body) => [201, { order: orderOf(body) }]]);
    const user = renderSale();
    await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Add at least one card to sell");
    const field = screen.getByLabelText("Scan a barcode or search by name");
    await user.type(field, `${ruby.barcode}{Enter}`);
    await screen.findByTestId("sale-line", undefined, SLOW);
    await user.clear(screen.getByLabelText("Unit price of Ruby Dragon"));
    await user.click(screen.getByRole("button", { name: "Complete sale" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Type a price for Ruby Dragon, like 4.99");
    expect(posted(seen)).toEqual([]);
  });
});
