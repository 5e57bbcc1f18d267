import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { TradeIn, TradeInBody, TradeInLine } from "../../../../contract/counter";
import { permissionsFor, type Role } from "../../../../contract/permissions";
import type { Product } from "../../../../contract/products";
import { routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { fakeProduct } from "../../../test/product-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { ProductStoreProvider } from "../../products";
import { CounterView, RECEIVED_ONLINE } from "./counter-view";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const ruby = fakeProduct(1, 1, { barcode: "2000000000011", product_name: "Ruby Dragon" });
const opal = fakeProduct(2, 2, { barcode: "2000000000028", product_name: "Opal Knight" });
const gone = fakeProduct(3, 3, { barcode: "2000000000035", product_name: "Retired Card", is_active: false });
const blue = fakeProduct(4, 4, { barcode: "2000000000042", product_name: "Blue Wisp" });
const catalogue = [ruby, opal, gone, blue];
/** A card not in the catalogue: the server makes it from a price feed's printing. */
const phoenix = fakeProduct(5, 5, { barcode: "SC-000005", product_name: "Ember Phoenix" });
const PHOENIX_PRINTING = {
  feed_id: 1,
  feed_name: "TCGplayer",
  run_id: 7,
  seq: 3,
  name: "Ember Phoenix",
  set_code: "EMB",
  set_name: "Embers",
  number: "12",
  finish: "foil",
  tcgplayer_product_id: 555,
  scryfall_id: null,
  pokemontcg_id: null,
  market: 800,
};
/** Market and the shop's wanted count per product: Opal Knight is wanted once only. */
const MARKET: Record<number, number> = { 1: 1000, 2: 400, 4: 200 };
const WANTED: Record<number, number> = { 2: 1 };

/** The server's draft: each line offered at 50 % cash, 65 % credit of its market, capped at what the shop wants. */
function draftOf(id: number, body: TradeInBody, status: TradeIn["status"] = "draft"): TradeIn {
  const lines: TradeInLine[] = (body.lines ?? []).map((l, i) => {
    const product = [...catalogue, phoenix].find((p) => p.id === l.product_id) as Product;
    const market = MARKET[l.product_id] ?? 0;
    const wanted = WANTED[l.product_id];
    const capped = wanted !== undefined && l.quantity > wanted;
    return {
      id: i + 1,
      product_id: l.product_id,
      product_name: product.product_name,
      condition: l.condition ?? null,
      quantity: capped ? (wanted as number) : l.quantity,
      market_cents: market,
      offer_cash_cents: market / 2,
      offer_credit_cents: (market * 65) / 100,
      struck: l.struck ?? false,
      note: capped ? `Capped by the buy limit: ${wanted} wanted` : null,
    };
  });
  const live = lines.filter((l) => !l.struck);
  const cash = live.reduce((s, l) => s + l.offer_cash_cents * l.quantity, 0);
  const credit = live.reduce((s, l) => s + l.offer_credit_cents * l.quantity, 0);
  return {
    id,
    number: 40 + id,
    customer_id: body.customer_id ?? null,
    status,
    source: "counter",
    payout: body.payout ?? "cash",
    cash_cents: body.payout === "credit" ? 0 : cash,
    credit_cents: body.payout === "credit" ? credit : 0,
    note: null,
    lines,
    totals: { cash_cents: cash, credit_cents: credit, units: live.reduce((s, l) => s + l.quantity, 0) },
    created_by: "sam",
    created_at: "2026-03-14T10:00:00.000Z",
    accepted_by: null,
    accepted_at: null,
    voided_by: null,
    voided_at: null,
    reversed_by: null,
    reversed_at: null,
    reversal_reason: null,
    approved_by: null,
    approved_at: null,
  };
}

async function serve(role: Role = "inventory", extra: Parameters<typeof routes>[0] = {}) {
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "sam", role, created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor(role)],
    "GET /api/products": () => [200, catalogue],
    "GET /api/customers": () => [200, []],
    "GET /api/trade-ins": () => [200, []],
    "POST /api/trade-ins": (req) => [201, { trade_in: draftOf(1, req.body as TradeInBody) }],
    "PUT /api/trade-ins/1": (req) => [200, { trade_in: draftOf(1, req.body as TradeInBody) }],
    "POST /api/trade-ins/1/accept": () => [409, { error: "This trade-in is accepted already: only a draft changes" }],
    ...extra,
  });
  const byBarcode = (req: SeenRequest): [number, unknown] => {
    const code = req.path.split("/").pop();
    const product = catalogue.find((p) => p.barcode === code);
    return product ? [200, product] : [404, { error: "Product not found" }];
  };
  server = await startTestServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://test");
    if (url.pathname.startsWith("/api/products/barcode/")) {
      const [status, answer] = byBarcode({ method: "GET", path: url.pathname, query: url.searchParams, body });
      app.seen.push({ method: "GET", path: url.pathname, query: url.searchParams, body });
      res.writeHead(status, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(answer));
    }
    app.handle(req, res, body);
  });
  return app.seen;
}

function renderCounter() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <ProductStoreProvider>
          <CounterView />
        </ProductStoreProvider>
      </AuthProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const saves = (seen: SeenRequest[]) =>
  seen
    .filter((r) => (r.method === "POST" || r.method === "PUT") && /^\/api\/trade-ins(\/\d+)?$/.test(r.path))
    .map((r) => r.body as TradeInBody);

describe("the Counter", () => {
  it("adds a scanned card with the server's offers, announces it and keeps focus in the scan field; a second scan adds one more", async () => {
    const seen = await serve();
    const user = renderCounter();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, `${ruby.barcode}{Enter}`);
    const line = await screen.findByTestId("trade-in-line", undefined, SLOW);
    expect(line).toHaveTextContent("Ruby Dragon");
    expect(within(line).getByTestId("line-cash")).toHaveTextContent("$5.00");
    expect(within(line).getByTestId("line-credit")).toHaveTextContent("$6.50");
    expect(screen.getByTestId("counter-announcement")).toHaveTextContent("Added Ruby Dragon, 1 at $5.00 cash or $6.50 credit each");
    expect(field).toHaveFocus();
    expect(field).toHaveValue("");
    expect(saves(seen)).toEqual([expect.objectContaining({ lines: [{ product_id: 1, condition: "Near Mint", quantity: 1 }] })]);

    await user.type(field, `${ruby.barcode}{Enter}`);
    await waitFor(() => expect(screen.getByTestId("total-cash")).toHaveTextContent("$10.00"));
    expect(screen.getByTestId("total-credit")).toHaveTextContent("$13.00");
    expect(saves(seen)[1]?.lines).toEqual([{ product_id: 1, condition: "Near Mint", quantity: 2, struck: false }]);
    expect(seen.filter((r) => r.path === "/api/trade-ins/1" && r.method === "PUT")).toHaveLength(1);
  });

  it("shows a capped line, strikes a line, and says why an accept was refused (409)", async () => {
    const seen = await serve();
    const user = renderCounter();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await user.type(field, `${opal.barcode}{Enter}`);
    await screen.findByTestId("trade-in-line", undefined, SLOW);
    const quantity = screen.getByLabelText("Quantity of Opal Knight");
    await user.clear(quantity);
    await user.type(quantity, "3{Enter}");
    const line = screen.getByTestId("trade-in-line");
    await waitFor(() => expect(line).toHaveTextContent("Capped by the buy limit: 1 wanted"));
    expect(within(line).getByText("Capped")).toBeInTheDocument();
    // The field takes the answer's quantity in an effect after that render: on a busy machine a moment later.
    await waitFor(() => expect(quantity).toHaveValue(1));

    await user.type(field, `${ruby.barcode}{Enter}`);
    await waitFor(() => expect(screen.getAllByTestId("trade-in-line")).toHaveLength(2));
    await user.click(screen.getByRole("button", { name: "Strike Opal Knight" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Restore Opal Knight" })).toBeInTheDocument());
    expect(saves(seen).at(-1)?.lines?.[0]).toMatchObject({ product_id: 2, struck: true });
    expect(screen.getByTestId("total-cash")).toHaveTextContent("$5.00");

    await user.click(screen.getByRole("button", { name: "Accept trade-in" }));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("This trade-in is accepted already: only a draft changes");
  });

  it("refuses a disabled card without asking the server, and finds a card by name in the catalogue", async () => {
    const seen = await serve();
    const user = renderCounter();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await user.type(field, `${gone.barcode}{Enter}`);
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent(
      "Retired Card is disabled: the shop cannot buy it until it is enabled again",
    );
    expect(saves(seen)).toEqual([]);

    await user.clear(field);
    await user.type(field, "wisp{Enter}");
    const add = await screen.findByRole("button", { name: "Add Blue Wisp" }, SLOW);
    await user.click(add);
    expect(await screen.findByTestId("trade-in-line", undefined, SLOW)).toHaveTextContent("Blue Wisp");
    expect(field).toHaveFocus();
  });

  it("resumes an open draft with its customer, pays a split, and voids it after a confirmation", async () => {
    const open = draftOf(1, { customer_id: 5, lines: [{ product_id: 1, condition: "Near Mint", quantity: 2 }] });
    const ada = { id: 5, name: "Ada Park", email: null, phone: null, notes: null, created_at: "", erased_at: null, credit_balance: 0 };
    const seen = await serve("inventory", {
      "GET /api/trade-ins": () => [200, [open]],
      "GET /api/customers/5": () => [200, { customer: ada, trade_ins: [], orders: [], credit: { balance: 0, entries: [] } }],
      "POST /api/trade-ins/1/void": () => [200, { trade_in: { ...open, status: "void" } }],
    });
    const user = renderCounter();
    await user.click(await screen.findByRole("button", { name: "Resume trade-in #41" }, SLOW));
    expect(await screen.findByTestId("picked-customer", undefined, SLOW)).toHaveTextContent("Ada Park");
    expect(screen.getByTestId("trade-in-line")).toHaveTextContent("Ruby Dragon");
    expect(screen.getByLabelText("Scan a barcode or search by name")).toHaveFocus();

    await user.click(screen.getByRole("radio", { name: "Split" }));
    await waitFor(() => expect(saves(seen).at(-1)).toMatchObject({ customer_id: 5, payout: "split", cash_cents: 500 }), SLOW);

    await user.click(screen.getByRole("button", { name: "Void" }));
    const dialog = screen.getByRole("dialog", { name: "Void trade-in #41?" });
    await user.click(within(dialog).getByRole("button", { name: "Void trade-in" }));
    expect(await screen.findByText("A new trade-in: scan or search the customer's cards.", undefined, SLOW)).toBeInTheDocument();
    expect(seen.some((r) => r.method === "POST" && r.path === "/api/trade-ins/1/void")).toBe(true);
  });

  it("shows a customer's buylist submission as received online in the drafts, and its note once resumed", async () => {
    const online: TradeIn = {
      ...draftOf(1, { lines: [{ product_id: 1, condition: "Near Mint", quantity: 2 }] }),
      source: "online",
      created_by: "Online buylist",
      note: "From Sam Seller <sam@example.com>: binder",
    };
    await serve("inventory", { "GET /api/trade-ins": () => [200, [online]] });
    const user = renderCounter();
    const drafts = await screen.findByRole("list", { name: "Open drafts" }, SLOW);
    expect(within(drafts).getByText(RECEIVED_ONLINE)).toBeInTheDocument();
    await user.click(within(drafts).getByRole("button", { name: `Resume trade-in #${online.number}` }));
    expect(await screen.findByTestId("online-note", undefined, SLOW)).toHaveTextContent("From Sam Seller <sam@example.com>: binder");
    expect(screen.getByTestId("trade-in-line")).toHaveTextContent("Ruby Dragon");
  });

  it("shows an online list Pending or Approved in the drafts and the opened draft, approves a pending one from the list and says why an approval was refused", async () => {
    const online = (id: number, approved: boolean): TradeIn => ({
      ...draftOf(id, { lines: [{ product_id: 1, quantity: 1 }] }),
      source: "online",
      created_by: "Online buylist",
      approved_by: approved ? "sam" : null,
      approved_at: approved ? "2026-03-14T11:00:00.000Z" : null,
    });
    const approvedIds = new Set([2]);
    const listed = () => [1, 2, 3].map((id) => online(id, approvedIds.has(id)));
    const approveRoute = (id: number) => () => {
      approvedIds.add(id);
      return [200, { trade_in: online(id, true) }] as [number, unknown];
    };
    const seen = await serve("inventory", {
      "GET /api/trade-ins": () => [200, listed()],
      "POST /api/trade-ins/1/approve": approveRoute(1),
      "POST /api/trade-ins/3/approve": () => [409, { error: "This online list is approved already" }],
    });
    const user = renderCounter();
    const drafts = await screen.findByRole("list", { name: "Open drafts" }, SLOW);
    const item = (number: number) => within(drafts).getByText(`Trade-in #${number}`).closest("li") as HTMLElement;
    expect(within(item(41)).getByText("Pending")).toBeInTheDocument();
    expect(within(item(42)).getByText("Approved")).toBeInTheDocument();
    expect(within(item(42)).queryByRole("button", { name: /Approve/ })).toBeNull();

    await user.click(within(item(41)).getByRole("button", { name: "Approve trade-in #41" }));
    await waitFor(() => expect(within(item(41)).getByText("Approved")).toBeInTheDocument(), SLOW);
    expect(within(item(41)).queryByRole("button", { name: /Approve/ })).toBeNull();
    expect(seen.filter((r) => r.method === "POST" && r.path === "/api/trade-ins/1/approve")).toHaveLength(1);

    // Opened: the header says Pending with an Approve button; an error answer is shown and it stays Pending.
    await user.click(within(drafts).getByRole("button", { name: "Resume trade-in #43" }));
    const approve = await screen.findByRole("button", { name: "Approve" }, SLOW);
    expect(screen.getByRole("heading", { name: "Counter" }).parentElement).toHaveTextContent("Pending");
    await user.click(approve);
    expect(await screen.findByText("This online list is approved already", undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Approve" })).toBeInTheDocument();
  });

  it("approves the opened online list from its header: it then shows Approved and no Approve button", async () => {
    const pending: TradeIn = { ...draftOf(1, { lines: [{ product_id: 1, quantity: 1 }] }), source: "online" };
    await serve("inventory", {
      "GET /api/trade-ins": () => [200, [pending]],
      "POST /api/trade-ins/1/approve": () => [
        200,
        { trade_in: { ...pending, approved_by: "sam", approved_at: "2026-03-14T11:00:00.000Z" } },
      ],
    });
    const user = renderCounter();
    const drafts = await screen.findByRole("list", { name: "Open drafts" }, SLOW);
    await user.click(within(drafts).getByRole("button", { name: "Resume trade-in #41" }));
    const header = () => screen.getByRole("heading", { name: "Counter" }).parentElement as HTMLElement;
    await user.click(await screen.findByRole("button", { name: "Approve" }, SLOW));
    await waitFor(() => expect(header()).toHaveTextContent("Approved"), SLOW);
    expect(header()).not.toHaveTextContent("Pending");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  });

  it("offers the price feed when the catalogue has no card by that name: none, an error, then a printing added to the catalogue and the trade-in", async () => {
    const seen = await serve("inventory", {
      "GET /api/counter/feed-cards": (req) => {
        const q = req.query.get("q");
        if (q === "Broken") return [503, { error: "The database is busy: try again in a moment" }];
        return [200, q === "Ember" ? [PHOENIX_PRINTING] : []];
      },
      "POST /api/counter/products-from-feed": () => [201, phoenix],
    });
    const user = renderCounter();
    const field = await screen.findByLabelText("Scan a barcode or search by name", undefined, SLOW);
    await waitFor(() => expect(screen.getByRole("button", { name: "Add or search" })).toBeEnabled());

    await user.type(field, "Nothing{Enter}");
    await user.click(await screen.findByRole("button", { name: "Search the price feed" }, SLOW));
    expect(await screen.findByText('No printing in the price feed matches "Nothing".', undefined, SLOW)).toHaveFocus();

    await user.clear(field);
    await user.type(field, "Broken{Enter}");
    await user.click(await screen.findByRole("button", { name: "Search the price feed" }, SLOW));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("The database is busy");

    await user.clear(field);
    await user.type(field, "Ember{Enter}");
    await user.click(await screen.findByRole("button", { name: "Search the price feed" }, SLOW));
    const list = await screen.findByRole("list", { name: "Price feed printings matching Ember" }, SLOW);
    expect(list).toHaveTextContent("Ember Phoenix · Embers #12 · Foil · Market $8.00 (TCGplayer)");
    await user.keyboard("{Tab}{Enter}");
    const line = await screen.findByTestId("trade-in-line", undefined, SLOW);
    expect(line).toHaveTextContent("Ember Phoenix");
    expect(seen.find((r) => r.path === "/api/counter/products-from-feed")?.body).toEqual({ feed_id: 1, run_id: 7, seq: 3 });
    expect(saves(seen).at(-1)?.lines).toEqual([{ product_id: 5, condition: "Near Mint", quantity: 1 }]);
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.queryByRole("list", { name: "Price feed printings matching Ember" })).toBeNull();
  });

  it("is refused to a streamer", async () => {
    await serve("streamer");
    renderCounter();
    expect(await screen.findByText("You don't have permission to use the counter.", undefined, SLOW)).toBeInTheDocument();
  });
});
