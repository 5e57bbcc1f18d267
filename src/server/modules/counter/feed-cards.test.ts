import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CounterFeedCard, TradeIn } from "../../../contract/counter.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { feedCards, marketPrices, priceFeedRuns, priceFeeds, productAudit, productMarket, products } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let feedId: number;
const word = `Zyx${newBarcode("").slice(-6)}`;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

const today = () => new Date().toISOString().slice(0, 10);

/** A finished run of the feed with these printings (seq from 1); an older run's cards are not offered. */
async function run(
  cards: Array<Omit<Partial<typeof feedCards.$inferInsert>, "runId" | "seq">>,
  status: "done" | "running" = "done",
): Promise<number> {
  const [r] = await t.app.db.insert(priceFeedRuns).values({ feedId, status, trigger: "upload", day: today() }).returning();
  const runId = (r as { id: number }).id;
  await t.app.db.insert(feedCards).values(cards.map((c, i) => ({ runId, seq: i + 1, finish: "normal" as const, ...c })));
  return runId;
}

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn("manager");
  inventory = await signIn("inventory");
  streamer = await signIn("streamer");
  const [feed] = await t.app.db
    .insert(priceFeeds)
    .values({ name: `Feed ${word}`, format: "csv" })
    .returning();
  feedId = (feed as { id: number }).id;
  expect((await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70 })).statusCode).toBe(200);
  await run([{ name: `${word} Old`, market: 1 }]);
  await run([
    { name: `${word} Dragon`, setName: "Base Set", setCode: "BS", number: "4/102", scryfallId: "scry-1", market: 1234, low: 1000 },
    { name: `${word} Dragon`, setName: "Base Set", number: "4/102", scryfallId: "scry-1", condition: "Lightly Played", market: 900 },
    { name: `${word} Dragon`, setName: "Jungle", number: "5", finish: "holofoil" as const, pokemontcgId: "jun-5", market: null },
  ]);
  await run([{ name: `${word} Unfinished`, market: 5 }], "running");
});
afterAll(async () => {
  await t?.close();
});

const search = async (q: string, by = inventory) => by.get(`/api/counter/feed-cards?q=${encodeURIComponent(q)}`);

describe("the price feeds' printings at the counter", () => {
  it("are searched by name in each feed's latest finished run by inventory staff, Near Mint's row only; streamers get 403", async () => {
    const res = await search(word);
    expect(res.statusCode, res.body).toBe(200);
    const cards = res.json<CounterFeedCard[]>();
    expect(cards.map((c) => [c.name, c.set_name, c.finish, c.market])).toEqual([
      [`${word} Dragon`, "Base Set", "normal", 1234],
      [`${word} Dragon`, "Jungle", "holofoil", null],
    ]);
    expect(cards[0]).toMatchObject({ feed_id: feedId, feed_name: `Feed ${word}`, number: "4/102", scryfall_id: "scry-1", seq: 1 });
    expect((await search(word, streamer)).statusCode).toBe(403);
    expect((await search("x")).statusCode).toBe(400);
  });

  it("add a card to the catalogue with its market ids and the feed's price, audited as a creation: its offer is market x percent at once", async () => {
    const [card] = (await search(`${word} dragon`)).json<CounterFeedCard[]>();
    if (!card) throw new Error("no card");
    const barcode = newBarcode();
    const body = { feed_id: card.feed_id, run_id: card.run_id, seq: card.seq, barcode };
    expect((await streamer.post("/api/counter/products-from-feed", body)).statusCode).toBe(403);
    const res = await inventory.post("/api/counter/products-from-feed", body);
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json<Product>();
    expect(product).toMatchObject({
      barcode,
      product_name: `${word} Dragon`,
      vendor: "Magic: The Gathering",
      set_name: "Base Set",
      card_number: "4/102",
      quantity_on_hand: 0,
    });
    const [ids] = await t.app.db.select().from(productMarket).where(eq(productMarket.productId, product.id));
    expect(ids).toMatchObject({ scryfallId: "scry-1", finish: "normal", tcgplayerProductId: null });
    const prices = await t.app.db.select().from(marketPrices).where(eq(marketPrices.productId, product.id));
    expect(prices).toMatchObject([{ feedId, day: today(), market: 1234, low: 1000, finish: "normal" }]);
    const audit = await t.app.db
      .select()
      .from(productAudit)
      .where(and(eq(productAudit.productId, product.id), eq(productAudit.action, "CREATE")));
    expect(audit).toHaveLength(1);

    const draft = await inventory.post("/api/trade-ins", { lines: [{ product_id: product.id, condition: "Near Mint", quantity: 2 }] });
    expect(draft.statusCode, draft.body).toBe(201);
    const line = draft.json<{ trade_in: TradeIn }>().trade_in.lines[0];
    expect(line).toMatchObject({ market_cents: 1234, offer_cash_cents: 617, offer_credit_cents: 863 });

    // The same printing with the same barcode: 409 as product creation answers, and nothing more written.
    const again = await manager.post("/api/counter/products-from-feed", body);
    expect(again.statusCode, again.body).toBe(409);
    expect(
      await t.app.db
        .select()
        .from(products)
        .where(eq(products.productName, `${word} Dragon`)),
    ).toHaveLength(1);
  });

  it("without a barcode, makes a shop code; a printing not in the feed's latest finished run answers 404", async () => {
    const [, holo] = (await search(word)).json<CounterFeedCard[]>();
    if (!holo) throw new Error("no card");
    const res = await inventory.post("/api/counter/products-from-feed", { feed_id: feedId, run_id: holo.run_id, seq: holo.seq });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json<Product>();
    expect(product.barcode).toMatch(/^SC-\d{6}$/);
    expect(product.vendor).toBe("Pokémon");
    const [ids] = await t.app.db.select().from(productMarket).where(eq(productMarket.productId, product.id));
    expect(ids).toMatchObject({ pokemontcgId: "jun-5", finish: "holofoil" });

    const old = await inventory.post("/api/counter/products-from-feed", { feed_id: feedId, run_id: holo.run_id - 1, seq: 1 });
    expect(old.statusCode).toBe(404);
    const lp = await inventory.post("/api/counter/products-from-feed", { feed_id: feedId, run_id: holo.run_id, seq: 2 });
    expect(lp.statusCode).toBe(404);
  });
});
