import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { PriceProposal } from "../../../../contract/prices";
import { fakeProposal, routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { PROPOSALS_PAGE } from "../api/list-proposals";
import { ReviewSection } from "./review-section";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const big = fakeProposal(1, {
  product_name: "Charizard Base Set",
  barcode: "2000000000011",
  old_price: 20000,
  new_price: 30000,
  market: 30000,
  estimated: true,
  change_percent: 50,
  at_stake: 30000,
  big: true,
  steps: [
    { rule: "market", text: "Lightly Played: 90% of $333.33 Near Mint = $300.00 (estimated)", cents: 30000 },
    { rule: "rounding", text: "Rounded to $299.99", cents: 29999 },
  ],
});
const fresh = fakeProposal(2, { product_name: "Pikachu Promo", old_price: null, new_price: 450, change_percent: null, at_stake: 450 });

/** A server holding `pending` proposals; accepting takes them out, as the real one does. */
async function serve(pending: PriceProposal[], total = pending.length) {
  let left = [...pending];
  const app = routes({
    "GET /api/prices/proposals": (req) => {
      const offset = Number(req.query.get("offset"));
      const limit = Number(req.query.get("limit"));
      const shown = req.query.get("big") === "true" ? left.filter((p) => p.big) : left;
      const count = total - (pending.length - left.length);
      return [200, { proposals: shown.slice(offset, offset + limit), total: count, big: left.filter((p) => p.big).length }];
    },
    "POST /api/prices/proposals/accept": (req) => {
      const body = req.body as { ids?: number[]; all?: boolean };
      const taken = body.all ? left : left.filter((p) => body.ids?.includes(p.id));
      left = left.filter((p) => !taken.includes(p));
      return [202, { import_id: "6f1c2a9e-0000-4000-8000-000000000001", accepted: taken.length }];
    },
    "GET /api/products/import/jobs/6f1c2a9e-0000-4000-8000-000000000001": () => [
      200,
      {
        id: "6f1c2a9e-0000-4000-8000-000000000001",
        status: "done",
        received: 1,
        processed: 1,
        result: { created: 0, updated: 1, skipped: 0, errors: [] },
      },
    ],
    "POST /api/imports/6f1c2a9e-0000-4000-8000-000000000001/undo": () => [
      200,
      { import: { id: "6f1c2a9e-0000-4000-8000-000000000001" }, reverted: 1, disabled: 0, not_reverted: [] },
    ],
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewSection />
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const rowOf = async (name: string) =>
  (await screen.findAllByTestId("proposal-row", undefined, SLOW)).find((r) =>
    within(r).queryByRole("rowheader", { name: new RegExp(name) }),
  ) as HTMLElement;
const calls = (seen: SeenRequest[], method: string, path: string) => seen.filter((r) => r.method === method && r.path === path);

describe("ReviewSection", () => {
  it("shows each proposal's prices, market, move and why; big moves are flagged in words", async () => {
    await serve([big, fresh]);
    renderSection();
    const charizard = await rowOf("Charizard Base Set");
    expect(within(charizard).getByRole("rowheader")).toHaveTextContent("Charizard Base Set2000000000011Big move");
    const cells = within(charizard)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells.slice(1, 6)).toEqual(["$200.00", "$300.00", "$300.00estimated", "+50%", "$300.00"]);
    expect(within(charizard).getByText("Rounded to $299.99")).toBeInTheDocument();
    expect(within(charizard).getByText("Why", { exact: false }).closest("summary")).toHaveTextContent("Why Charizard Base Set");

    const pikachu = await rowOf("Pikachu Promo");
    expect(
      within(pikachu)
        .getAllByRole("cell")
        .map((c) => c.textContent)
        .slice(1, 5),
    ).toEqual(["None", "$4.50", "$11.00", "No price before"]);
    expect(within(pikachu).queryByText("Big move")).toBeNull();
    expect(screen.getByText("2 new prices waiting for review, 1 of them a big move.")).toBeInTheDocument();
  });

  it("accepts the selected ones; the message's Undo waits for the import and undoes it", async () => {
    const seen = await serve([big, fresh]);
    const user = renderSection();
    const accept = await screen.findByRole("button", { name: "Accept selected (0)" }, SLOW);
    expect(accept).toBeDisabled();
    await user.click(within(await rowOf("Pikachu Promo")).getByRole("checkbox", { name: "Select Pikachu Promo" }));
    await user.click(screen.getByRole("button", { name: "Accept selected (1)" }));

    expect(await screen.findByText("Accepted 1 new price", undefined, SLOW)).toBeInTheDocument();
    expect(calls(seen, "POST", "/api/prices/proposals/accept").map((r) => r.body)).toEqual([{ ids: [2] }]);
    // The list shows what is still pending.
    await waitFor(() => expect(screen.queryByText("Pikachu Promo")).toBeNull(), SLOW);
    expect(screen.getByRole("button", { name: "Accept selected (0)" })).toBeDisabled();

    // A click without the pointer's press (sonner captures the pointer, which jsdom cannot), as a keyboard's Enter clicks.
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(await screen.findByText("Old prices back on 1 product", undefined, SLOW)).toBeInTheDocument();
    const undo = seen.findIndex((r) => r.method === "POST" && r.path.endsWith("/undo"));
    const job = seen.findLastIndex((r) => r.path.startsWith("/api/products/import/jobs/"));
    expect(undo).toBeGreaterThan(job);
  });

  it("Accept all asks first and accepts every pending proposal, not only those shown", async () => {
    const seen = await serve([big, fresh]);
    const user = renderSection();
    await user.click(await screen.findByRole("checkbox", { name: "Big moves only" }, SLOW));
    await waitFor(() => expect(screen.queryByText("Pikachu Promo")).toBeNull(), SLOW);
    expect(screen.getAllByTestId("proposal-row").map((r) => r.dataset.barcode)).toEqual([big.barcode]);
    await user.click(screen.getByRole("button", { name: "Accept all (2)" }));
    const dialog = await screen.findByRole("dialog", { name: "Accept all 2 new prices?" }, SLOW);
    await user.click(within(dialog).getByRole("button", { name: "Accept all (2)" }));
    expect(await screen.findByText("Accepted 2 new prices", undefined, SLOW)).toBeInTheDocument();
    expect(calls(seen, "POST", "/api/prices/proposals/accept").map((r) => r.body)).toEqual([{ all: true }]);
    expect(await screen.findByText("Nothing waiting for review.", undefined, SLOW)).toBeInTheDocument();
    expect(
      screen.getByText("No new prices to review. They appear here after a feed's file is read, or the rules change."),
    ).toBeInTheDocument();
  });

  it("shows more a page at a time", async () => {
    const many = Array.from({ length: PROPOSALS_PAGE + 1 }, (_, i) => fakeProposal(i + 1));
    const seen = await serve(many);
    const user = renderSection();
    expect(await screen.findAllByTestId("proposal-row", undefined, SLOW)).toHaveLength(100);
    expect(screen.getByText("Showing 100 of 101")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(screen.getAllByTestId("proposal-row")).toHaveLength(101), SLOW);
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
    expect(calls(seen, "GET", "/api/prices/proposals").map((r) => r.query.get("offset"))).toEqual(["0", "100"]);
    // Select all shown takes every row on screen.
    await user.click(screen.getByRole("checkbox", { name: "Select all shown" }));
    expect(screen.getByRole("button", { name: "Accept selected (101)" })).toBeEnabled();
  });

  it("says when the list could not be loaded, and tries again", async () => {
    let fail = true;
    const app = routes({
      "GET /api/prices/proposals": () => (fail ? [500, { error: "Database unavailable" }] : [200, { proposals: [], total: 0, big: 0 }]),
    });
    server = await startTestServer(app.handle);
    const user = renderSection();
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("Database unavailable");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByText("Nothing waiting for review.", undefined, SLOW)).toBeInTheDocument();
  });
});
