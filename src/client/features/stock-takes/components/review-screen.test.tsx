import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { permissionsFor, type Role } from "../../../../contract/permissions";
import type { ReviewLine, StockTake, StockTakeReview } from "../../../../contract/stock-takes";
import { routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
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

async function renderReview(
  role: Role,
  approval: [number, unknown] = [200, { ...review, stock_take: { ...session, status: "approved" } }],
) {
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "sam", role, created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor(role)],
    "GET /api/stock-takes/7/review": () => [200, review],
    "POST /api/stock-takes/7/approve": () => approval,
  });
  server = await startTestServer(app.handle);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <ReviewScreen id={7} onCount={() => {}} onList={() => {}} />
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
