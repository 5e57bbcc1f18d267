import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedRun, PriceFeed, PriceProposal, ProductMarket } from "../../../contract/prices.js";
import { DEFAULT_PRICING_RULES, type PricingRules } from "../../../contract/pricing-rules.js";
import type { Product } from "../../../contract/products.js";
import { signedIn } from "../../test/factories.js";
import { multipart } from "../../test/photo-files.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { eventually } from "../../test/webhook-receiver.js";
import { claimDueFeeds } from "./prices.repo.js";

/** Market prices through the API: feeds, matching, the price history, the rules' proposals, accepting them as an import and its undo. */

let t: TestApp;
let cookie: string;
let api: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signedIn(t.app, "manager")).cookie;
  api = caller(t.app, cookie);
});
afterAll(async () => {
  await t.close();
});

async function upload(app: FastifyInstance, feedId: number, text: string, field = "file", name = "feed.csv"): Promise<FeedRun> {
  const body = await multipart(Buffer.from(text), name, "text/csv", field);
  const res = await app.inject({
    method: "POST",
    url: `/api/prices/feeds/${feedId}/run`,
    headers: { cookie, "content-type": body.contentType },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function newFeed(format: PriceFeed["format"] = "csv"): Promise<PriceFeed> {
  const res = await api.post("/api/prices/feeds", { name: newBarcode(`Feed ${format} `), format });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function market(productId: number): Promise<ProductMarket> {
  const res = await api.get(`/api/products/${productId}/market-prices`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function proposals(): Promise<PriceProposal[]> {
  const res = await api.get("/api/prices/proposals?limit=500");
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ proposals: PriceProposal[] }>().proposals;
}

async function rules(next: Partial<PricingRules>): Promise<void> {
  const res = await api.put("/api/prices/rules", { ...DEFAULT_PRICING_RULES, ...next });
  expect(res.statusCode, res.body).toBe(200);
}

async function product(id: number): Promise<Product> {
  const res = await api.get("/api/products?since=0");
  const found = res.json<{ products: Product[] }>().products.find((p) => p.id === id);
  if (!found) throw new Error(`product ${id} not found`);
  return found;
}

describe("price feeds", () => {
  it("matches by id first, then by set + number in the product's finish; records prices once a day; lists proposals", async () => {
    const tag = newBarcode("SET");
    const byId = await api.create({ product_name: "Charizard", price: 10_000, condition: "Near Mint" });
    await api.put(`/api/products/${byId.id}/market`, { tcgplayer_product_id: 42_424_242 });
    const bySet = await api.create({
      product_name: "Pikachu",
      price: 500,
      set_name: `${tag} Base`,
      card_number: "058/102",
      condition: "Lightly Played",
    });
    const foil = await api.create({ product_name: "Pikachu foil", price: 900, set_name: `${tag} Base`, card_number: "58" });
    await api.put(`/api/products/${foil.id}/market`, { finish: "foil" });
    const unmatched = await api.create({ product_name: "Nobody's card", price: 100, set_name: `${tag} Base`, card_number: "999" });

    const feed = await newFeed();
    const csv = [
      "tcgplayer_product_id,set,number,finish,condition,price",
      "42424242,,,normal,,120.00",
      `,${tag} base,58,normal,,6.00`,
      `,${tag} Base,58,foil,,15.50`,
      ",Other set,999,normal,,1.00",
    ].join("\n");
    const run = await upload(t.app, feed.id, csv);
    expect(run).toMatchObject({ status: "done", records: 4, matched: 3, error: null });

    const charizard = await market(byId.id);
    expect(charizard.ids.tcgplayer_product_id).toBe(42_424_242);
    expect(charizard.latest).toMatchObject({ feed_id: feed.id, market: 12_000, finish: "normal" });
    expect((await market(bySet.id)).latest?.market).toBe(600);
    expect((await market(foil.id)).latest).toMatchObject({ market: 1550, finish: "foil" });
    expect((await market(unmatched.id)).latest).toBeNull();

    // The same prices the next run only confirm them: no second row.
    await upload(t.app, feed.id, csv);
    expect((await market(byId.id)).history).toHaveLength(1);

    const mine = (await proposals()).filter((p) => [byId.id, bySet.id, foil.id].includes(p.product_id));
    const of = (id: number) => mine.find((p) => p.product_id === id);
    expect(of(byId.id)).toMatchObject({ old_price: 10_000, new_price: 12_000, change_percent: 20, big: false, estimated: false });
    // Lightly Played with only a Near Mint price: 90 %, estimated.
    expect(of(bySet.id)).toMatchObject({ old_price: 500, new_price: 540, estimated: true });
    expect(of(bySet.id)?.steps[0]?.text).toContain("(estimated)");
    expect(of(foil.id)).toMatchObject({ new_price: 1550, big: true });
    // Sorted by money at stake (the move times the stock).
    const stakes = (await proposals()).map((p) => p.at_stake);
    expect(stakes).toEqual([...stakes].sort((a, b) => b - a));
  });

  it("a feed that fails halfway changes nothing: prices, proposals and the cards to link from stay the last good run's", async () => {
    const card = await api.create({ product_name: "Mewtwo", price: 2_000 });
    await api.put(`/api/products/${card.id}/market`, { pokemontcg_id: `base1-${card.id}` });
    const feed = await newFeed("pokemontcg");
    const good = JSON.stringify({
      data: [
        {
          id: `base1-${card.id}`,
          name: "Mewtwo",
          number: "10",
          set: { id: "base1", name: "Base" },
          tcgplayer: { prices: { holofoil: { market: 30 } } },
        },
      ],
    });
    await api.put(`/api/products/${card.id}/market`, { finish: "holofoil" });
    expect(await upload(t.app, feed.id, good, "file", "cards.json")).toMatchObject({ status: "done", matched: 1 });
    const before = { market: await market(card.id), proposals: (await proposals()).filter((p) => p.product_id === card.id) };
    expect(before.market.latest?.market).toBe(3000);

    const broken = `${good.slice(0, -2).replace("30", "45")}, {"id": "x", "name": `;
    const failed = await upload(t.app, feed.id, broken, "file", "cards.json");
    expect(failed.status).toBe("failed");
    expect(failed.error).toBeTruthy();
    expect(await market(card.id)).toEqual(before.market);
    expect((await proposals()).filter((p) => p.product_id === card.id)).toEqual(before.proposals);
  });

  it("the rules' order: a frozen price stays, floor and margin raise, rounding ends in .49/.99; saving rules makes proposals again", async () => {
    const frozen = await api.create({ product_name: "Frozen", price: 1_000 });
    const cheap = await api.create({ product_name: "Cheap", price: 10, cost: 20 });
    const plain = await api.create({ product_name: "Plain", price: 1_000 });
    await api.put(`/api/products/${frozen.id}/market`, { scryfall_id: `sf-${frozen.id}`, price_frozen: true });
    await api.put(`/api/products/${cheap.id}/market`, { scryfall_id: `sf-${cheap.id}` });
    await api.put(`/api/products/${plain.id}/market`, { scryfall_id: `sf-${plain.id}` });
    const feed = await newFeed();
    await upload(t.app, feed.id, ["scryfall_id,price", `sf-${frozen.id},20.00`, `sf-${cheap.id},0.05`, `sf-${plain.id},12.34`].join("\n"));
    await rules({ floor_cents: 25, min_margin_percent: 50, rounding: "49_99" });
    const mine = new Map((await proposals()).map((p) => [p.product_id, p]));
    expect(mine.has(frozen.id)).toBe(false);
    // Market $0.05, floor $0.25, cost $0.20 + 50 % = $0.30, rounded up to $0.49 (never under the margin).
    expect(mine.get(cheap.id)).toMatchObject({ new_price: 49 });
    expect(mine.get(cheap.id)?.steps.map((s) => s.rule)).toEqual(["market", "floor", "margin", "rounding"]);
    expect(mine.get(plain.id)).toMatchObject({ new_price: 1249 });
  });

  it("accepting writes the prices as one import (merging with changes made since), undone like any import", async () => {
    const a = await api.create({ product_name: "Accept A", price: 100 });
    const b = await api.create({ product_name: "Accept B", price: 100 });
    const c = await api.create({ product_name: "Accept C", price: 100 });
    for (const p of [a, b, c]) await api.put(`/api/products/${p.id}/market`, { external_ids: { cardmarket: `cm-${p.id}` } });
    const feed = await newFeed();
    await upload(t.app, feed.id, ["id:cardmarket,price", `cm-${a.id},2.00`, `cm-${b.id},3.00`, `cm-${c.id},4.00`].join("\n"));
    await rules({});
    const mine = (await proposals()).filter((p) => [a.id, b.id, c.id].includes(p.product_id));
    expect(mine).toHaveLength(3);
    // Someone sets B's price by hand after the proposal was made: the accept keeps it.
    expect((await api.put(`/api/products/${b.id}`, { price: 150 })).statusCode).toBe(200);
    // A sale after the proposal: the accept keeps the stock.
    expect((await api.put(`/api/products/${a.id}/quantity`, { quantity_change: -1 })).statusCode).toBe(200);

    const accepted = await api.post("/api/prices/proposals/accept", { ids: mine.filter((p) => p.product_id !== c.id).map((p) => p.id) });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { import_id } = accepted.json<{ import_id: string; accepted: number }>();
    expect(accepted.json().accepted).toBe(2);
    await eventually(
      async () =>
        (await api.get(`/api/products/import/jobs/${import_id}`)).json<{ status: string }>().status === "done" ? true : undefined,
      20_000,
      "the accepted prices' import",
    );
    // Only the price changed: the stock (after the sale), the year and the rest stay.
    expect(await product(a.id)).toMatchObject({ price: 200, quantity_on_hand: 9, release_year: 2024, is_active: true });
    expect((await product(b.id)).price).toBe(150);
    expect((await product(c.id)).price).toBe(100);
    const left = (await proposals()).filter((p) => [a.id, b.id, c.id].includes(p.product_id));
    expect(left.map((p) => p.product_id)).toEqual([c.id]);

    const undo = await api.post(`/api/imports/${import_id}/undo`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect((await product(a.id)).price).toBe(100);
  });

  it("unmatched products are listed; one is linked by searching the feed's cards by name and picking the printing", async () => {
    const name = newBarcode("Zapdos ");
    const lost = await api.create({ product_name: name, price: 700 });
    const feed = await newFeed("scryfall");
    const cards = JSON.stringify([
      { id: `sf-${lost.id}`, name, set: "fo", set_name: "Fossil", collector_number: "15", prices: { usd: "9.50", usd_foil: "20.00" } },
    ]);
    expect(await upload(t.app, feed.id, cards, "file", "cards.json")).toMatchObject({ status: "done", records: 2, matched: 0 });
    const unmatched = await api.get(`/api/prices/feeds/${feed.id}/unmatched?limit=500`);
    expect(unmatched.statusCode, unmatched.body).toBe(200);
    expect(unmatched.json<{ products: Array<{ id: number }> }>().products.map((p) => p.id)).toContain(lost.id);

    const found = await api.get(`/api/prices/feeds/${feed.id}/cards?q=${encodeURIComponent(name.slice(0, 12).toLowerCase())}`);
    expect(found.statusCode, found.body).toBe(200);
    const printings = found.json<Array<{ scryfall_id: string; finish: string; market: number }>>();
    expect(printings.map((c) => [c.finish, c.market])).toEqual([
      ["foil", 2000],
      ["normal", 950],
    ]);
    const foil = printings[0];
    await api.put(`/api/products/${lost.id}/market`, { scryfall_id: foil?.scryfall_id, finish: foil?.finish });
    await upload(t.app, feed.id, cards, "file", "cards.json");
    expect((await market(lost.id)).latest).toMatchObject({ market: 2000, finish: "foil" });
    const after = (await api.get(`/api/prices/feeds/${feed.id}/unmatched?limit=500`)).json<{ products: Array<{ id: number }> }>();
    expect(after.products.map((p) => p.id)).not.toContain(lost.id);
    expect((await api.get(`/api/prices/feeds/${feed.id}/cards?q=z`)).statusCode).toBe(400);
  });

  it("a feed's URL is refused where webhooks may not point; the daily fetch claims each feed with a URL once a day", async () => {
    const refused = await api.post("/api/prices/feeds", {
      name: newBarcode("Metadata "),
      format: "csv",
      url: "http://169.254.169.254/latest",
    });
    expect(refused.statusCode).toBe(400);
    const made = await api.post("/api/prices/feeds", {
      name: newBarcode("Daily "),
      format: "csv",
      url: "https://prices.example.com/daily.csv",
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<PriceFeed>().id;
    const first = await claimDueFeeds(t.database.db, "00:00", "UTC");
    expect(first.map((f) => f.id)).toContain(id);
    // Another process (or the next hour) finds it taken for the day.
    expect((await claimDueFeeds(t.database.db, "00:00", "UTC")).map((f) => f.id)).not.toContain(id);
  });

  it("only managers and super_admin run feeds and rules; every signed-in user reads a product's market prices", async () => {
    const staff = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
    expect((await staff.get("/api/prices/feeds")).statusCode).toBe(403);
    expect((await staff.get("/api/prices/proposals")).statusCode).toBe(403);
    expect((await staff.put("/api/prices/rules", DEFAULT_PRICING_RULES)).statusCode).toBe(403);
    const card = await api.create();
    const streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
    expect((await streamer.get(`/api/products/${card.id}/market-prices`)).statusCode).toBe(200);
    expect((await streamer.put(`/api/products/${card.id}/market`, { price_frozen: true })).statusCode).toBe(403);
    expect((await api.post("/api/prices/feeds", { name: "x", format: "nope" })).statusCode).toBe(400);
    expect((await api.post("/api/prices/proposals/accept", {})).statusCode).toBe(400);
  });
});

describe("a feed fetched from its URL", () => {
  it("is read from a server webhooks may reach (WEBHOOK_ALLOWED_HOSTS), and refused (502) where they may not", async () => {
    const csv = "barcode,price\nNO-SUCH-BARCODE,1.00\n";
    const source = createServer((_req, res) => res.writeHead(200, { "content-type": "text/csv" }).end(csv));
    source.listen(0, "127.0.0.1");
    await once(source, "listening");
    const { port } = source.address() as AddressInfo;
    const allowed = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: ["localhost"] });
    try {
      for (const [app, status] of [
        [allowed.app, 200],
        [t.app, 502],
      ] as const) {
        const you = caller(app, (await signedIn(app, "manager")).cookie);
        const feed = await you.post("/api/prices/feeds", {
          name: newBarcode("Fetched "),
          format: "csv",
          url: `http://localhost:${port}/prices.csv`,
        });
        expect(feed.statusCode, feed.body).toBe(201);
        const run = await you.post(`/api/prices/feeds/${feed.json<PriceFeed>().id}/run`);
        expect(run.statusCode, run.body).toBe(status);
        if (status === 200) expect(run.json<FeedRun>()).toMatchObject({ status: "done", trigger: "request", records: 1, matched: 0 });
      }
    } finally {
      await allowed.close();
      source.close();
    }
  });
});

describe("proposals across runs", () => {
  it("a proposal the next run makes again keeps its id, so accepting by the ids listed before the run accepts them all", async () => {
    const a = await api.create({ product_name: "Stable A", price: 100 });
    const b = await api.create({ product_name: "Stable B", price: 100 });
    const moved = await api.create({ product_name: "Stable moved", price: 100 });
    const right = await api.create({ product_name: "Stable right", price: 100 });
    for (const p of [a, b, moved, right]) await api.put(`/api/products/${p.id}/market`, { scryfall_id: `stable-${p.id}` });
    const feed = await newFeed();
    const csv = (movedPrice: string, rightPrice: string) =>
      [
        "scryfall_id,price",
        `stable-${a.id},2.00`,
        `stable-${b.id},3.00`,
        `stable-${moved.id},${movedPrice}`,
        `stable-${right.id},${rightPrice}`,
      ].join("\n");
    await rules({});
    await upload(t.app, feed.id, csv("4.00", "5.00"));
    const ids = [a.id, b.id, moved.id, right.id];
    const before = new Map((await proposals()).filter((p) => ids.includes(p.product_id)).map((p) => [p.product_id, p]));
    expect([...before.keys()].sort()).toEqual([...ids].sort());

    // The same file again: the same proposals, the same ids, listed the same.
    await upload(t.app, feed.id, csv("4.00", "5.00"));
    const again = (await proposals()).filter((p) => ids.includes(p.product_id));
    expect(new Map(again.map((p) => [p.product_id, p]))).toEqual(before);

    // One card's price moved and another's is now the product's price: only those two proposals change.
    await upload(t.app, feed.id, csv("4.50", "1.00"));
    const after = new Map((await proposals()).filter((p) => ids.includes(p.product_id)).map((p) => [p.product_id, p]));
    expect(after.get(a.id)).toEqual(before.get(a.id));
    expect(after.get(b.id)).toEqual(before.get(b.id));
    expect(after.get(moved.id)).toMatchObject({ new_price: 450 });
    expect(after.get(moved.id)?.id).not.toBe(before.get(moved.id)?.id);
    expect(after.has(right.id)).toBe(false);

    // Accepting by the ids listed before the runs: A's and B's accepted in full; the moved card's old id finds nothing.
    const accepted = await api.post("/api/prices/proposals/accept", { ids: [a.id, b.id].map((id) => before.get(id)?.id) });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { import_id } = accepted.json<{ import_id: string; accepted: number }>();
    expect(accepted.json().accepted).toBe(2);
    const stale = await api.post("/api/prices/proposals/accept", { ids: [before.get(moved.id)?.id] });
    expect(stale.statusCode, stale.body).toBe(409);
    await eventually(
      async () =>
        (await api.get(`/api/products/import/jobs/${import_id}`)).json<{ status: string }>().status === "done" ? true : undefined,
      20_000,
      "the accepted prices' import",
    );
    expect((await product(a.id)).price).toBe(200);
    expect((await product(b.id)).price).toBe(300);
    expect((await proposals()).filter((p) => ids.includes(p.product_id)).map((p) => p.product_id)).toEqual([moved.id]);
  });
});

describe("a feed's file read in its own thread", () => {
  it("streams a file of many batches: every printing in the shop's currency staged, the problems told by row, a file broken near its end changes nothing", async () => {
    const last = await api.create({ product_name: "Last of many", price: 100 });
    await api.put(`/api/products/${last.id}/market`, { scryfall_id: `many-${last.id}` });
    const feed = await newFeed();
    const rows = ["scryfall_id,finish,currency,price"];
    for (let i = 0; i < 3_000; i++) rows.push(`many-${i}-${last.id},normal,USD,1.00`);
    rows[3] = `many-x-${last.id},shiny,USD,1.00`;
    rows[10] = `many-y-${last.id},normal,EUR,1.00`;
    rows[2_000] = `many-z-${last.id},shinier,USD,1.00`;
    rows.push(`many-${last.id},normal,USD,7.00`);
    const run = await upload(t.app, feed.id, rows.join("\n"));
    expect(run).toMatchObject({ status: "done", records: 2_998, matched: 1, error: null });
    expect(run.problems).toHaveLength(2);
    expect(run.problems[0]).toMatch(/^Row 4: unknown finish "shiny"/);
    expect(run.problems[1]).toMatch(/^Row 2001: unknown finish "shinier"/);
    expect((await market(last.id)).latest?.market).toBe(700);

    const broken = [...rows.slice(0, -1), `many-${last.id},normal,USD,9.00`, `"many-never-closed,normal,USD,1.00`].join("\n");
    const failed = await upload(t.app, feed.id, broken);
    expect(failed).toMatchObject({ status: "failed", matched: 0 });
    expect(failed.error).toMatch(/never closed/);
    expect((await market(last.id)).latest?.market).toBe(700);
  });
});
