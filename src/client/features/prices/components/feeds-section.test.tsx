import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import { FEED_FORMAT_LABELS } from "../../../../contract/market";
import type { CreateFeedBody, PriceFeed } from "../../../../contract/prices";
import { fakeFeed, fakeRun, fill, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { FeedsSection } from "./feeds-section";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const done = fakeFeed(1, {
  name: "Scryfall daily",
  format: "scryfall",
  url: "https://data.scryfall.io/default-cards.json",
  last_run: fakeRun(),
});
const failed = fakeFeed(2, {
  name: "Shop CSV",
  last_run: fakeRun({ feed_id: 2, status: "failed", records: 3, matched: 0, proposals: 0, error: "Row 4: price is not an amount" }),
});
const problems = fakeFeed(3, {
  name: "TCGplayer Pokemon",
  format: "tcgcsv",
  last_run: fakeRun({ feed_id: 3, problems: ["Row 2: no id", "Row 3: no id", "Row 4: no id", "Row 5: no id", "Row 6: no id"] }),
});
const never = fakeFeed(4, { name: "Pokemon TCG", format: "pokemontcg" });

async function serve(feeds: PriceFeed[]) {
  const list = [...feeds];
  const app = routes({
    "GET /api/prices/feeds": () => [200, list],
    "POST /api/prices/feeds": (req) => {
      const body = req.body as CreateFeedBody;
      if (list.some((f) => f.name === body.name)) return [409, { error: "A feed with this name already exists" }];
      const feed = fakeFeed(list.length + 1, {
        name: body.name,
        format: body.format,
        url: body.url ?? null,
        products_url: body.products_url ?? null,
      });
      list.push(feed);
      return [201, feed];
    },
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FeedsSection />
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const cardOf = async (name: string) => screen.findByRole("article", { name }, SLOW);

describe("FeedsSection", () => {
  it("lists each feed with its format, where it comes from and its last run", async () => {
    await serve([done, failed, problems, never]);
    renderSection();

    const scryfall = await cardOf("Scryfall daily");
    expect(scryfall).toHaveTextContent(FEED_FORMAT_LABELS.scryfall);
    expect(scryfall).toHaveTextContent("Fetched every day from https://data.scryfall.io/default-cards.json");
    const run = within(scryfall).getByTestId("feed-last-run");
    expect(run).toHaveTextContent("Last run 2026-03-14Done");
    expect(run).toHaveTextContent("Records120Matched100Proposals12");
    expect(within(scryfall).getByRole("button", { name: "Fetch now" })).toBeInTheDocument();

    const csv = await cardOf("Shop CSV");
    expect(csv).toHaveTextContent("Uploaded by hand");
    expect(within(csv).getByTestId("feed-last-run")).toHaveTextContent("Failed");
    expect(csv).toHaveTextContent("Error: Row 4: price is not an amount");
    expect(within(csv).queryByText("Records")).toBeNull();
    expect(within(csv).getByLabelText("Feed file for Shop CSV")).toHaveAttribute("accept", ".csv,text/csv");

    const tcg = await cardOf("TCGplayer Pokemon");
    expect(
      within(tcg)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Row 2: no id", "Row 3: no id", "Row 4: no id", "... and 2 more"]);
    // A TCGCSV feed comes as two files.
    expect(within(tcg).getByLabelText("Products file (JSON) for TCGplayer Pokemon")).toBeInTheDocument();
    expect(within(tcg).getByLabelText("Prices file (JSON) for TCGplayer Pokemon")).toBeInTheDocument();

    expect(await cardOf("Pokemon TCG")).toHaveTextContent("Never read yet.");
  });

  it("asks for the file before uploading", async () => {
    const seen = await serve([failed, problems]);
    const user = renderSection();
    await user.click(within(await cardOf("Shop CSV")).getByRole("button", { name: "Upload file for Shop CSV" }));
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("Choose the feed's file");
    await user.click(within(await cardOf("TCGplayer Pokemon")).getByRole("button", { name: "Upload file for TCGplayer Pokemon" }));
    expect(within(await cardOf("TCGplayer Pokemon")).getByRole("alert")).toHaveTextContent("Choose the products file and the prices file");
    expect(seen.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("adds a feed: the contract's messages, the server's refusal, then the new feed in the list", async () => {
    const seen = await serve([failed]);
    const user = renderSection();
    await user.click(await screen.findByRole("button", { name: "Add feed" }, SLOW));
    const dialog = await screen.findByRole("dialog", { name: "Add price feed" }, SLOW);
    await user.click(within(dialog).getByRole("button", { name: "Add feed" }));
    expect(await within(dialog).findByRole("alert", undefined, SLOW)).toHaveTextContent("Feed name is required");

    await fill(user, within(dialog).getByLabelText("Name"), "Shop CSV");
    await fill(user, within(dialog).getByLabelText("URL (optional)"), "prices.csv");
    await user.click(within(dialog).getByRole("button", { name: "Add feed" }));
    expect(await within(dialog).findByRole("alert", undefined, SLOW)).toHaveTextContent("Feed URL must be a full http(s) address");

    await user.clear(within(dialog).getByLabelText("URL (optional)"));
    await user.click(within(dialog).getByRole("button", { name: "Add feed" }));
    expect(await within(dialog).findByRole("alert", undefined, SLOW)).toHaveTextContent("A feed with this name already exists");

    await fill(user, within(dialog).getByLabelText("Name"), "TCGplayer Lorcana");
    await user.selectOptions(within(dialog).getByLabelText("Format"), FEED_FORMAT_LABELS.tcgcsv);
    await fill(user, within(dialog).getByLabelText("Products URL (optional)"), "https://tcgcsv.com/tcgplayer/71/23303/products");
    await fill(user, within(dialog).getByLabelText("Prices URL (optional)"), "https://tcgcsv.com/tcgplayer/71/23303/prices");
    await user.click(within(dialog).getByRole("button", { name: "Add feed" }));

    expect(await screen.findByText('Feed "TCGplayer Lorcana" added', undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), SLOW);
    expect(await cardOf("TCGplayer Lorcana")).toHaveTextContent("Fetched every day from https://tcgcsv.com/tcgplayer/71/23303/prices");
    expect(seen.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([
      { name: "Shop CSV", format: "csv", url: null, products_url: null },
      {
        name: "TCGplayer Lorcana",
        format: "tcgcsv",
        url: "https://tcgcsv.com/tcgplayer/71/23303/prices",
        products_url: "https://tcgcsv.com/tcgplayer/71/23303/products",
      },
    ]);
  });

  it("says when there are no feeds yet, and when the list could not be loaded", async () => {
    await serve([]);
    renderSection();
    expect(
      await screen.findByText("No feeds yet. Add one, then upload its file or let the server fetch it every day.", undefined, SLOW),
    ).toBeInTheDocument();
    await server?.close();

    const app = routes({ "GET /api/prices/feeds": () => [403, { error: "Insufficient permissions" }] });
    server = await startTestServer(app.handle);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FeedsSection />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole("alert", undefined, SLOW)).toHaveTextContent("Insufficient permissions");
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});
