import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { MarketIds, ProductMarket } from "../../../../contract/prices";
import { fakeMarket, fill, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { todayIn } from "../../reports";
import { TCGPLAYER_ID_MESSAGE } from "../market-ids-form";
import { MarketSection } from "./market-section";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const today = todayIn("UTC");
const price = (day: string, market: number) => ({
  feed_id: 4,
  feed_name: "Scryfall daily",
  day,
  checked_on: day,
  finish: "foil" as const,
  currency: "USD",
  market,
  low: null,
  mid: null,
  high: null,
  direct_low: null,
  by_condition: null,
});
const latest = { ...price("2026-01-10", 1234), checked_on: today };
const priced = fakeMarket(7, { latest, history: [latest, price("2026-01-01", 1000)] });

/** A server with the product's market; PUT merges what it is sent, as the real one does. */
async function serve(start: ProductMarket) {
  let market = start;
  const app = routes({
    "GET /api/products/7/market-prices": () => [200, market],
    "PUT /api/products/7/market": (req) => {
      market = { ...market, ids: { ...market.ids, ...(req.body as Partial<MarketIds>) } };
      return [200, market];
    },
  });
  server = await startTestServer(app.handle);
  return () => app.seen.filter((r) => r.method === "PUT").map((r) => r.body);
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MarketSection productId={7} />
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("MarketSection", () => {
  it("shows the latest market price, its feed and age, and its history as a line described in words", async () => {
    await serve(priced);
    renderSection();
    const shown = await screen.findByTestId("market-latest", undefined, SLOW);
    expect(shown).toHaveTextContent("Market $12.34 (Foil)");
    expect(shown).toHaveTextContent(`Scryfall daily · seen today (checked ${today})`);
    expect(within(shown).getByRole("img")).toHaveAccessibleName(
      `Market price from $10.00 on 2026-01-01 to $12.34 on ${today}; lowest $10.00, highest $12.34`,
    );
  });

  it("freezes the price at once, and saves the ids with their own button (Enter too)", async () => {
    const puts = await serve(fakeMarket(7));
    const user = renderSection();
    expect(await screen.findByText("No feed prices this product yet.", undefined, SLOW)).toBeInTheDocument();
    const freeze = screen.getByRole("switch", { name: "Freeze price" });
    expect(freeze).not.toBeChecked();
    await user.click(freeze);
    expect(await screen.findByText("Price frozen: the rules leave it as it is", undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Freeze price" })).toBeChecked();

    await fill(user, screen.getByLabelText("TCGplayer id"), "284137");
    await fill(user, screen.getByLabelText("Scryfall id"), " 0000579f-7b35-4ed3-b44c-db2a538066fe ");
    await user.selectOptions(screen.getByLabelText("Finish"), "Reverse holofoil");
    await user.click(screen.getByRole("button", { name: "Save market ids" }));
    expect(await screen.findByText("Market ids saved", undefined, SLOW)).toBeInTheDocument();

    await fill(user, screen.getByLabelText("pokemontcg.io id"), "base1-4");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(puts()).toHaveLength(3), SLOW);
    expect(puts()).toEqual([
      { price_frozen: true },
      {
        tcgplayer_product_id: 284137,
        scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
        pokemontcg_id: null,
        finish: "reverse_holofoil",
      },
      {
        tcgplayer_product_id: 284137,
        scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
        pokemontcg_id: "base1-4",
        finish: "reverse_holofoil",
      },
    ]);
    // The frozen price stays frozen through the ids' saves.
    expect(screen.getByRole("switch", { name: "Freeze price" })).toBeChecked();
  });

  it("a TCGplayer id is a number: said on the field, nothing sent", async () => {
    const puts = await serve(priced);
    const user = renderSection();
    await fill(user, await screen.findByLabelText("TCGplayer id", undefined, SLOW), "abc");
    await user.click(screen.getByRole("button", { name: "Save market ids" }));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent(TCGPLAYER_ID_MESSAGE);
    expect(puts()).toEqual([]);
  });
});
