import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { FeedCard, PriceFeed, UnmatchedAnswer } from "../../../../contract/prices";
import { fakeFeed, fakeMarket, fakeRun, fill, routes, type SeenRequest, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { UnmatchedSection } from "./unmatched-section";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const charizard: UnmatchedAnswer["products"][number] = {
  id: 41,
  barcode: "4000000000041",
  product_name: "Charizard",
  set_name: "Base Set",
  card_number: "4/102",
  finish: "holofoil",
};
const blastoise: UnmatchedAnswer["products"][number] = { ...charizard, id: 42, barcode: "4000000000042", product_name: "Blastoise" };

const printing = (fields: Partial<FeedCard>): FeedCard => ({
  name: "Charizard",
  set_code: "base1",
  set_name: "Base",
  number: "4",
  finish: "holofoil",
  tcgplayer_product_id: null,
  scryfall_id: null,
  pokemontcg_id: null,
  market: 35_000,
  ...fields,
});

function serve(feeds: PriceFeed[], unmatched: Record<number, UnmatchedAnswer["products"]>, cards: FeedCard[] = []) {
  const app = routes({
    "GET /api/prices/feeds": () => [200, feeds],
    ...Object.fromEntries(
      Object.entries(unmatched).map(([feedId, products]) => [
        `GET /api/prices/feeds/${feedId}/unmatched`,
        (): [number, unknown] => [200, { products, total: products.length }],
      ]),
    ),
    ...Object.fromEntries(feeds.map((f) => [`GET /api/prices/feeds/${f.id}/cards`, (): [number, unknown] => [200, cards]])),
    "PUT /api/products/41/market": () => [200, fakeMarket(41)],
  });
  return app;
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <UnmatchedSection />
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const calls = (seen: SeenRequest[], method: string, path: string) => seen.filter((r) => r.method === method && r.path === path);

describe("UnmatchedSection", () => {
  it("lists a feed's unmatched products; Link searches its cards by the product's name and sets the printing's ids and finish", async () => {
    const feeds = [fakeFeed(1, { name: "Pokemon TCG", last_run: fakeRun({ feed_id: 1 }) })];
    const app = serve(feeds, { 1: [charizard, blastoise] }, [
      printing({ tcgplayer_product_id: 42_382, pokemontcg_id: "base1-4" }),
      printing({ set_name: null, set_code: null, number: null, finish: "normal", market: null }),
    ]);
    server = await startTestServer(app.handle);
    const user = renderSection();

    const rows = await screen.findAllByTestId("unmatched-row", undefined, SLOW);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining("Charizard4000000000041 · Base Set · 4/102 · Holofoil"),
      expect.stringContaining("Blastoise"),
    ]);
    expect(screen.getByText("2 products not priced by Pokemon TCG.")).toBeInTheDocument();

    await user.click(within(rows[0] as HTMLElement).getByRole("button", { name: "Link Charizard" }));
    const dialog = await screen.findByRole("dialog", { name: "Link Charizard" }, SLOW);
    // The search starts from the product's name, in the field that has the focus.
    const field = within(dialog).getByLabelText("Card name");
    expect(field).toHaveValue("Charizard");
    expect(field).toHaveFocus();
    const found = await within(dialog).findAllByTestId("feed-card-result", undefined, SLOW);
    expect(found.map((r) => r.textContent)).toEqual([
      "CharizardBase · 4 · Holofoil · market $350.00Link to this",
      "CharizardNormalNo id to link by",
    ]);
    expect(calls(app.seen, "GET", "/api/prices/feeds/1/cards").map((r) => r.query.get("q"))).toEqual(["Charizard"]);

    await user.click(within(dialog).getByRole("button", { name: "Link to Charizard, Base · 4, Holofoil" }));
    expect(await screen.findByText("Charizard linked to Charizard: priced at Pokemon TCG's next run", undefined, SLOW)).toBeInTheDocument();
    expect(calls(app.seen, "PUT", "/api/products/41/market").map((r) => r.body)).toEqual([
      { finish: "holofoil", tcgplayer_product_id: 42_382, pokemontcg_id: "base1-4" },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), SLOW);
    expect(within(rows[0] as HTMLElement).getByText("Linked: priced at the feed's next run")).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByRole("button", { name: "Link Blastoise" })).toBeInTheDocument();
  });

  it("searches again as the name is changed, says what it needs and when nothing is found", async () => {
    const feeds = [fakeFeed(1, { name: "Pokemon TCG", last_run: fakeRun({ feed_id: 1 }) })];
    const app = serve(feeds, { 1: [charizard] }, []);
    server = await startTestServer(app.handle);
    const user = renderSection();
    await user.click(await screen.findByRole("button", { name: "Link Charizard" }, SLOW));
    const dialog = await screen.findByRole("dialog", { name: "Link Charizard" }, SLOW);
    expect(await within(dialog).findByText('No card in Pokemon TCG is named like "Charizard".', undefined, SLOW)).toBeInTheDocument();
    await fill(user, within(dialog).getByLabelText("Card name"), "C");
    expect(await within(dialog).findByText("Type at least 2 letters of the card's name.", undefined, SLOW)).toBeInTheDocument();
    await fill(user, within(dialog).getByLabelText("Card name"), "Zard");
    expect(await within(dialog).findByText('No card in Pokemon TCG is named like "Zard".', undefined, SLOW)).toBeInTheDocument();
    expect(calls(app.seen, "GET", "/api/prices/feeds/1/cards").map((r) => r.query.get("q"))).toEqual(["Charizard", "Zard"]);
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), SLOW);
    expect(screen.getByRole("button", { name: "Link Charizard" })).toHaveFocus();
  });

  it("chooses among the feeds that were read; says when none was, when all are priced, and when the list failed", async () => {
    const feeds = [
      fakeFeed(1, { name: "Pokemon TCG", last_run: fakeRun({ feed_id: 1 }) }),
      fakeFeed(2, { name: "Scryfall", last_run: fakeRun({ feed_id: 2 }) }),
      fakeFeed(3, { name: "Never read" }),
    ];
    const app = routes({
      "GET /api/prices/feeds": () => [200, feeds],
      "GET /api/prices/feeds/1/unmatched": () => [200, { products: [], total: 0 }],
      "GET /api/prices/feeds/2/unmatched": () => [404, { error: "This feed has not been read yet" }],
    });
    server = await startTestServer(app.handle);
    const user = renderSection();
    expect(await screen.findByText("Every active product is priced by this feed.", undefined, SLOW)).toBeInTheDocument();
    const select = screen.getByLabelText("Feed");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Pokemon TCG", "Scryfall"]);
    await user.selectOptions(select, "Scryfall");
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("This feed has not been read yet");
  });

  it("says so when no feed has been read", async () => {
    server = await startTestServer(serve([fakeFeed(3, { name: "Never read" })], {}).handle);
    renderSection();
    expect(
      await screen.findByText(
        "No feed has been read yet. Products a feed does not price are listed here once its file is read.",
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
  });
});
