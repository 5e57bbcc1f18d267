import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { permissionsFor, type Role } from "../../../../contract/permissions";
import type { ReviewLine, StockTake, StockTakeReview } from "../../../../contract/stock-takes";
import { fill, routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { fakeApi } from "../../../test/product-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { ProductStore, ProductStoreProvider } from "../../products";
import { reviewCsv } from "../review-csv";
import { ReviewScreen } from "./review-screen";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const session: StockTake = {
  id: 7,
  number: 3,
  status: "review",
  scope: { location_ids: [1] },
  started_by: "sam",
  started_at: "2026-03-14T08:00:00.000Z",
  finished_at: null,
  approved_by: null,
  scans: 6,
};
const line = (fields: Partial<ReviewLine>): ReviewLine => ({
  product_id: 11,
  barcode: "2000000000017",
  name: "Charizard",
  location: "Case A",
  found_in: ["Case A"],
  expected: 2,
  counted: 2,
  difference: 0,
  value_at_cost: 0,
  value_at_price: 0,
  status: "counted",
  applied: null,
  ...fields,
});
const review: StockTakeReview = {
  stock_take: session,
  lines: [
    line({}),
    line({
      product_id: 12,
      barcode: "2000000000024",
      name: "Pikachu",
      expected: 1,
      counted: 2,
      difference: 1,
      value_at_cost: 400,
      value_at_price: 1000,
    }),
    line({
      product_id: 13,
      barcode: "2000000000031",
      name: "Mewtwo",
      found_in: [],
      counted: 0,
      difference: -2,
      value_at_cost: -800,
      value_at_price: -2000,
      status: "missing",
    }),
    line({ product_id: 14, barcode: "2000000000048", name: "Eevee", location: "Binder", expected: 1, counted: 1, status: "misplaced" }),
    line({
      product_id: null,
      barcode: "999",
      name: "=cmd",
      location: null,
      expected: 0,
      counted: 1,
      difference: 1,
      value_at_cost: null,
      value_at_price: null,
      status: "unknown",
    }),
  ],
  locations: [{ location: "Case A", lines: 3, difference: -1, value_at_cost: -400, value_at_price: -1000 }],
  totals: { lines: 4, difference: -1, value_at_cost: -400, value_at_price: -1000 },
};

type Route = (req: SeenRequest) => [number, unknown];

async function renderReview(
  role: Role,
  approval: [number, unknown] = [200, { ...review, stock_take: { ...session, status: "approved" } }],
  more: Record<string, Route> = {},
  /** A request ("POST /api/...") answered only once this promise settles: what the screen shows meanwhile. */
  hold?: { request: string; until: Promise<void> },
) {
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "sam", role, created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor(role)],
    "GET /api/stock-takes/7/review": () => [200, review],
    "POST /api/stock-takes/7/approve": () => approval,
    ...more,
  });
  server = await startTestServer((req, res, body) => {
    const held = hold && `${req.method} ${new URL(req.url ?? "/", "http://test").pathname}` === hold.request;
    if (held) void hold.until.then(() => app.handle(req, res, body));
    else app.handle(req, res, body);
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <ProductStoreProvider store={new ProductStore(fakeApi().api)}>
          <ReviewScreen id={7} onCount={() => {}} onList={() => {}} />
        </ProductStoreProvider>
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  await screen.findByRole("heading", { name: "Stock take #3: review" }, SLOW);
  return { seen: app.seen, user: userEvent.setup() };
}

describe("ReviewScreen", () => {
  it("shows the differences per product and location, the lists, and lets a manager approve the ones ticked", async () => {
    const { seen, user } = await renderReview("manager");
    expect(within(screen.getByTestId("review-totals")).getByText("-$4.00")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Expected but never scanned (1)" })).getByText("Mewtwo")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Found in another location (1)" })).getByText("Eevee")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Unknown barcodes (1)" })).getByText("999")).toBeInTheDocument();
    await user.click(await screen.findByRole("checkbox", { name: "Approve Mewtwo" }, SLOW));
    await user.click(screen.getByRole("button", { name: "Approve selected (3)" }));
    await waitFor(() => expect(seen.some((r) => r.path === "/api/stock-takes/7/approve")).toBe(true), SLOW);
    expect(seen.find((r) => r.path === "/api/stock-takes/7/approve")?.body).toEqual({ product_ids: [11, 12, 14] });
  });

  it("unticks the products an approval refuses (disabled, or below 0), so the others can be approved", async () => {
    const { user } = await renderReview("manager", [409, { error: "1 product(s) could not be changed", product_ids: [13] }]);
    await user.click(await screen.findByRole("button", { name: "Approve all" }, SLOW));
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "Approve Mewtwo" })).not.toBeChecked(), SLOW);
    expect(screen.getByRole("button", { name: "Approve selected (3)" })).toBeEnabled();
  });

  it("is read-only for an inventory user", async () => {
    await renderReview("inventory");
    expect(await screen.findByText("A manager approves the differences; you see them here.", undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve all" })).toBeNull();
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(screen.getByRole("button", { name: "Cancel stock take" })).toBeInTheDocument();
  });
});

const posted = (seen: SeenRequest[], path: string) => seen.filter((r) => r.method === "POST" && r.path === path).map((r) => r.body);
const lineAnswer = (fields: Partial<ReviewLine>) => [200, { line: line(fields) }] as [number, unknown];

describe("ReviewScreen's actions on misplaced products and unknown barcodes", () => {
  it("moves a product found elsewhere after asking, and counts another where it was found", async () => {
    const { seen, user } = await renderReview("inventory", undefined, {
      "POST /api/stock-takes/7/misplaced/move": () => lineAnswer({ product_id: 14, location: "Case A", placement: "moved" }),
      "POST /api/stock-takes/7/misplaced/keep": () => lineAnswer({ product_id: 14, placement: "kept" }),
    });
    const list = screen.getByRole("region", { name: "Found in another location (1)" });
    await user.click(within(list).getByRole("button", { name: "Move Eevee to Case A" }));
    const dialog = await screen.findByRole("dialog", { name: "Move Eevee to Case A?" });
    expect(dialog).toHaveTextContent("Its location changes from Binder to Case A");
    await user.click(within(dialog).getByRole("button", { name: "Don't move" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posted(seen, "/api/stock-takes/7/misplaced/move")).toEqual([]);

    await user.click(within(list).getByRole("button", { name: "Move Eevee to Case A" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Move" }));
    expect(await screen.findByText("Eevee moved to Case A", undefined, SLOW)).toBeInTheDocument();
    expect(posted(seen, "/api/stock-takes/7/misplaced/move")).toEqual([{ product_id: 14, location: "Case A" }]);

    await user.click(within(list).getByRole("button", { name: "Count Eevee where it was found" }));
    expect(await screen.findByText("Eevee counted where it was found", undefined, SLOW)).toBeInTheDocument();
    expect(posted(seen, "/api/stock-takes/7/misplaced/keep")).toEqual([{ product_id: 14 }]);
  });

  it("shows a refused action's reason beside its line, announced, and lets it be tried again", async () => {
    const { user } = await renderReview("inventory", undefined, {
      "POST /api/stock-takes/7/misplaced/keep": () => [409, { error: "This stock take is no longer counting or in review" }],
    });
    const list = screen.getByRole("region", { name: "Found in another location (1)" });
    await user.click(within(list).getByRole("button", { name: "Count Eevee where it was found" }));
    expect(await within(list).findByRole("alert", undefined, SLOW)).toHaveTextContent("This stock take is no longer counting or in review");
    expect(within(list).getByRole("button", { name: "Count Eevee where it was found" })).toBeEnabled();
  });

  it("offers a move to each location a product was found in; its buttons wait while an action runs", async () => {
    let release = () => {};
    const until = new Promise<void>((resolve) => {
      release = resolve;
    });
    const twice = { ...review, lines: review.lines.map((l) => (l.status === "misplaced" ? { ...l, found_in: ["Case A", "Case B"] } : l)) };
    const { seen, user } = await renderReview(
      "inventory",
      undefined,
      {
        "GET /api/stock-takes/7/review": () => [200, twice],
        "POST /api/stock-takes/7/misplaced/keep": () => lineAnswer({ product_id: 14, placement: "kept" }),
      },
      { request: "POST /api/stock-takes/7/misplaced/keep", until },
    );
    const list = screen.getByRole("region", { name: "Found in another location (1)" });
    expect(within(list).getByRole("button", { name: "Move Eevee to Case A" })).toBeInTheDocument();
    expect(within(list).getByRole("button", { name: "Move Eevee to Case B" })).toBeInTheDocument();
    await user.click(within(list).getByRole("button", { name: "Count Eevee where it was found" }));
    const waiting = await within(list).findByRole("button", { name: "Count Eevee where it was found" });
    await waitFor(() => expect(waiting).toBeDisabled(), SLOW);
    expect(waiting).toHaveTextContent("Counting...");
    expect(within(list).getByRole("button", { name: "Move Eevee to Case B" })).toBeDisabled();
    release();
    expect(await screen.findByText("Eevee counted where it was found", undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(within(list).getByRole("button", { name: "Move Eevee to Case B" })).toBeEnabled(), SLOW);
    expect(posted(seen, "/api/stock-takes/7/misplaced/keep")).toEqual([{ product_id: 14 }]);
  });

  it("drops an unknown barcode's scans after asking", async () => {
    const { seen, user } = await renderReview("inventory", undefined, {
      "POST /api/stock-takes/7/unknown/drop": () => [200, { barcode: "999", dropped: 1 }],
    });
    const list = screen.getByRole("region", { name: "Unknown barcodes (1)" });
    await user.click(within(list).getByRole("button", { name: "Drop barcode 999" }));
    const dialog = await screen.findByRole("dialog", { name: "Drop the scans of 999?" });
    expect(dialog).toHaveTextContent("kept for the record but left out of the review and the report");
    await user.click(within(dialog).getByRole("button", { name: "Drop" }));
    expect(await screen.findByText("Scans of 999 dropped", undefined, SLOW)).toBeInTheDocument();
    expect(posted(seen, "/api/stock-takes/7/unknown/drop")).toEqual([{ barcode: "999" }]);
  });

  it("creates the product of an unknown barcode in the Add product form, barcode filled in, then links its scans to it; a cancelled form links nothing", async () => {
    let created = false;
    const unknownNow = (l: ReviewLine): ReviewLine =>
      l.status === "unknown" && created ? { ...l, catalogue_product: { id: 50, name: "Mew" } } : l;
    const { seen, user } = await renderReview("inventory", undefined, {
      "GET /api/stock-takes/7/review": () => [200, { ...review, lines: review.lines.map(unknownNow) }],
      "POST /api/products": (req) => {
        created = true;
        return [201, { id: 50, ...(req.body as object) }];
      },
      "POST /api/stock-takes/7/unknown/link": () => lineAnswer({ product_id: 50, barcode: "999", name: "Mew", counted: 1 }),
    });
    const list = screen.getByRole("region", { name: "Unknown barcodes (1)" });
    // Opened and cancelled: nothing is linked.
    await user.click(within(list).getByRole("button", { name: "Create a product for barcode 999" }));
    await user.click(within(await screen.findByRole("dialog", { name: "Add New Product" }, SLOW)).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), SLOW);
    await waitFor(() => expect(seen.filter((r) => r.path === "/api/stock-takes/7/review").length).toBeGreaterThan(1), SLOW);
    expect(posted(seen, "/api/stock-takes/7/unknown/link")).toEqual([]);

    await user.click(within(list).getByRole("button", { name: "Create a product for barcode 999" }));
    const form = await screen.findByRole("dialog", { name: "Add New Product" }, SLOW);
    expect(within(form).getByLabelText("Barcode *")).toHaveValue("999");
    await fill(user, within(form).getByLabelText("Product Name *"), "Mew");
    await fill(user, within(form).getByLabelText("Vendor *"), "Pokemon");
    await user.click(within(form).getByRole("button", { name: "Add Product" }));
    expect(await screen.findByText("999 linked to Mew: 1 counted", undefined, SLOW)).toBeInTheDocument();
    expect(posted(seen, "/api/stock-takes/7/unknown/link")).toEqual([{ barcode: "999", product_id: 50 }]);
  });

  it("links an unknown barcode to the product the catalogue has for it now, after asking", async () => {
    const known = {
      ...review,
      lines: review.lines.map((l) => (l.status === "unknown" ? { ...l, catalogue_product: { id: 51, name: "Mew" } } : l)),
    };
    const { seen, user } = await renderReview("inventory", undefined, {
      "GET /api/stock-takes/7/review": () => [200, known],
      "POST /api/stock-takes/7/unknown/link": () => lineAnswer({ product_id: 51, barcode: "999", name: "Mew", counted: 1 }),
    });
    const list = screen.getByRole("region", { name: "Unknown barcodes (1)" });
    expect(list).toHaveTextContent("now in the catalogue as Mew");
    expect(within(list).queryByRole("button", { name: "Create a product for barcode 999" })).toBeNull();
    await user.click(within(list).getByRole("button", { name: "Link barcode 999 to Mew" }));
    const dialog = await screen.findByRole("dialog", { name: "Link 999 to Mew?" });
    expect(dialog).toHaveTextContent("Its 1 counted become Mew's, its expected quantity taken now.");
    await user.click(within(dialog).getByRole("button", { name: "Link" }));
    expect(await screen.findByText("999 linked to Mew: 1 counted", undefined, SLOW)).toBeInTheDocument();
    expect(posted(seen, "/api/stock-takes/7/unknown/link")).toEqual([{ barcode: "999", product_id: 51 }]);
  });

  it("offers no action once the session is approved", async () => {
    await renderReview("manager", undefined, {
      "GET /api/stock-takes/7/review": () => [200, { ...review, stock_take: { ...session, status: "approved" } }],
    });
    expect(within(screen.getByRole("region", { name: "Found in another location (1)" })).queryByRole("button")).toBeNull();
    expect(within(screen.getByRole("region", { name: "Unknown barcodes (1)" })).queryByRole("button")).toBeNull();
  });
});

describe("reviewCsv", () => {
  it("has a row per line, amounts in units, and formula-like text escaped", () => {
    const rows = reviewCsv(review).split("\r\n");
    expect(rows[0]).toBe(
      "status,product_id,barcode,name,location,found_in,expected,counted,difference,value_at_cost,value_at_price,applied",
    );
    expect(rows[3]).toBe("missing,13,2000000000031,Mewtwo,Case A,,2,0,-2,-8.00,-20.00,");
    expect(rows[5]).toBe(`unknown,,999,"'=cmd",,Case A,0,1,1,,,`);
  });
});
