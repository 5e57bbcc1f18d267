import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MarketQuotesAnswer, UnderMarketAnswer } from "../../../contract/market-views.js";
import type { FeedRun, PriceFeed, ProductMarket } from "../../../contract/prices.js";
import type { StockValueReport } from "../../../contract/reports.js";
import type { CreatedToken } from "../../../contract/tokens.js";
import { signedIn } from "../../test/factories.js";
import { multipart } from "../../test/photo-files.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/**
 * Market prices where people look, through the API: the latest market price of the rows a screen
 * shows, the products priced under market, and the stock at market in the stock value report.
 * This file's database holds only its own products, so the list and the sums are exact.
 */

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

async function upload(app: FastifyInstance, feedId: number, text: string): Promise<FeedRun> {
  const body = await multipart(Buffer.from(text), "feed.csv", "text/csv", "file");
  const res = await app.inject({
    method: "POST",
    url: `/api/prices/feeds/${feedId}/run`,
    headers: { cookie, "content-type": body.contentType },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function newFeed(): Promise<PriceFeed> {
  const res = await api.post("/api/prices/feeds", { name: newBarcode("Feed "), format: "csv" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A CSV feed pricing these barcodes (dollars as the feed writes them). */
const csvOf = (rows: Array<[string, string]>) => ["barcode,price", ...rows.map(([b, p]) => `${b},${p}`)].join("\n");

const secretFor = async (scopes: string[]) => {
  const res = await api.post("/api/tokens", { name: newBarcode("Token "), scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedToken>().secret;
};
const withToken = (secret: string, url: string) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${secret}` } });

describe("market prices beside the inventory's rows", () => {
  it("answers the latest market price of each asked-for product that has one, as the product's own market prices say", async () => {
    const priced = await api.create({ price: 1_000 });
    const twice = await api.create({ price: 2_000 });
    const none = await api.create({ price: 3_000 });
    const first = await newFeed();
    const second = await newFeed();
    const run = await upload(
      t.app,
      first.id,
      csvOf([
        [priced.barcode, "12.34"],
        [twice.barcode, "20.00"],
      ]),
    );
    await upload(t.app, second.id, csvOf([[twice.barcode, "25.00"]]));

    const res = await api.get(`/api/prices/market?ids=${priced.id},${twice.id},${none.id},2147483647,${priced.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const { quotes } = res.json<MarketQuotesAnswer>();
    expect(quotes.map((q) => q.product_id)).toEqual([priced.id, twice.id]);
    expect(quotes[0]).toEqual({ product_id: priced.id, market: 1_234, currency: "USD", day: run.day, checked_on: run.day });
    // The same latest price as GET /api/products/{id}/market-prices (the streamer's and the edit dialog's).
    const own = (await api.get(`/api/products/${twice.id}/market-prices`)).json<ProductMarket>();
    expect(quotes[1]?.market).toBe(own.latest?.market);
    // A feed's run is no catalogue change: the products are as they were.
    const listed = await api.get(`/api/products?since=0`);
    expect(listed.json<{ products: Array<{ id: number; version: number }> }>().products.find((p) => p.id === priced.id)?.version).toBe(
      priced.version,
    );
  });

  it("refuses a list that is not ids, or longer than a screen's rows", async () => {
    for (const ids of ["", "1,,2", "a", "-1", "0", `${Array.from({ length: 201 }, (_, i) => i + 1).join(",")}`]) {
      const res = await api.get(`/api/prices/market?ids=${ids}`);
      expect(res.statusCode, `${ids}: ${res.body}`).toBe(400);
    }
    expect((await api.get(`/api/prices/market?ids=${Array.from({ length: 200 }, (_, i) => i + 1).join(",")}`)).statusCode).toBe(200);
  });

  it("every signed-in user reads it, a token with products:read too; a token without it gets 403", async () => {
    const card = await api.create({ price: 100 });
    for (const role of ["streamer", "inventory"] as const) {
      const other = caller(t.app, (await signedIn(t.app, role)).cookie);
      expect((await other.get(`/api/prices/market?ids=${card.id}`)).statusCode).toBe(200);
    }
    expect((await withToken(await secretFor(["products:read"]), `/api/prices/market?ids=${card.id}`)).statusCode).toBe(200);
    const refused = await withToken(await secretFor(["quantity:write"]), `/api/prices/market?ids=${card.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("This API token lacks the products:read scope");
    expect((await t.app.inject({ method: "GET", url: `/api/prices/market?ids=${card.id}` })).statusCode).toBe(401);
  });
});

describe("priced under market, and the stock at market", () => {
  it("lists active, ungraded products under their market price by money at stake, a page at a time; sums the stock at market", async () => {
    const before = (await api.get("/api/reports/stock-value?from=2026-01-01&to=2026-01-02")).json<StockValueReport>().market_now;
    // Under by $1 x 10 = $10, by $5 x 1 = $5, by $0.50 x 0 stock (counted once) = $0.50.
    const many = await api.create({ product_name: "Many", price: 1_000, quantity_on_hand: 10 });
    const one = await api.create({ product_name: "One", price: 1_000, quantity_on_hand: 1 });
    const gone = await api.create({ product_name: "Sold out", price: 1_000, quantity_on_hand: 0 });
    const over = await api.create({ product_name: "Over", price: 5_000, quantity_on_hand: 2 });
    const noPrice = await api.create({ product_name: "No price", price: null, quantity_on_hand: 3 });
    const graded = await api.create({ product_name: "Slab", price: 1_000, quantity_on_hand: 4, grader: "PSA", grade: "10" });
    const disabled = await api.create({ product_name: "Disabled", price: 1_000, quantity_on_hand: 5 });
    expect((await api.put(`/api/products/${disabled.id}/status`, { is_active: false })).statusCode).toBe(200);
    const unpriced = await api.create({ product_name: "Not in the feed", price: 700, quantity_on_hand: 6 });
    const feed = await newFeed();
    await upload(
      t.app,
      feed.id,
      csvOf([
        [many.barcode, "11.00"],
        [one.barcode, "15.00"],
        [gone.barcode, "10.50"],
        [over.barcode, "40.00"],
        [noPrice.barcode, "2.00"],
        [graded.barcode, "30.00"],
        [disabled.barcode, "30.00"],
      ]),
    );

    const page = async (q: string) => {
      const res = await api.get(`/api/prices/under-market${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<UnderMarketAnswer>();
    };
    const mine = new Set([many.id, one.id, gone.id, over.id, noPrice.id, graded.id, disabled.id, unpriced.id]);
    const all = await page(`?limit=200`);
    const listed = all.products.filter((p) => mine.has(p.product_id));
    expect(listed.map((p) => p.product_name)).toEqual(["Many", "One", "Sold out"]);
    expect(listed[0]).toMatchObject({
      product_id: many.id,
      barcode: many.barcode,
      quantity_on_hand: 10,
      price: 1_000,
      market: 1_100,
      under_by: 100,
      under_percent: 9.1,
      at_stake: 1_000,
    });
    expect(listed[2]).toMatchObject({ under_by: 50, at_stake: 50 });
    const stakes = all.products.map((p) => p.at_stake);
    expect(stakes).toEqual([...stakes].sort((a, b) => b - a));
    expect(all.total).toBe(all.products.length);
    expect(all.total_at_stake).toBe(stakes.reduce((a, b) => a + b, 0));
    const at = all.products.findIndex((p) => p.product_id === one.id);
    expect((await page(`?limit=1&offset=${at}`)).products.map((p) => p.product_id)).toEqual([one.id]);
    // Past the end: no rows, and still the count.
    expect(await page("?limit=10&offset=5000")).toEqual({ products: [], total: all.total, total_at_stake: all.total_at_stake });

    // The stock at market: every product in stock with a market price (the disabled one too, as the
    // value at price counts it); the slab and the product the feed does not price count nothing.
    const now = (await api.get("/api/reports/stock-value?from=2026-01-01&to=2026-01-02")).json<StockValueReport>().market_now;
    expect(now).toEqual({
      at_market: before.at_market + 10 * 1_100 + 1 * 1_500 + 2 * 4_000 + 3 * 200 + 5 * 3_000,
      products_priced: before.products_priced + 5,
      units_priced: before.units_priced + 10 + 1 + 2 + 3 + 5,
      products_without_market: before.products_without_market + 2,
      units_without_market: before.units_without_market + 4 + 6,
    });
    expect(unpriced.quantity_on_hand).toBe(6);
  });

  it("reads the whole catalogue a span of ids at a time: products thousands of ids apart are all listed and summed", async () => {
    const report = async () =>
      (await api.get("/api/reports/stock-value?from=2026-01-01&to=2026-01-02")).json<StockValueReport>().market_now;
    const list = async () => (await api.get("/api/prices/under-market?limit=200")).json<UnderMarketAnswer>();
    const [before, listed] = [await report(), await list()];
    const near = await api.create({ product_name: "Near", price: 100, quantity_on_hand: 1 });
    // The next products' ids a few spans further on.
    await t.database.db.execute(sql`select setval('products_id_seq', (select max(id) from products) + 7000)`);
    const far = await api.create({ product_name: "Far", price: 100, quantity_on_hand: 2 });
    await t.database.db.execute(sql`select setval('products_id_seq', (select max(id) from products) + 2500)`);
    const farther = await api.create({ product_name: "Farther", price: 100, quantity_on_hand: 3 });
    expect(farther.id - near.id).toBeGreaterThan(9_000);
    const feed = await newFeed();
    await upload(
      t.app,
      feed.id,
      csvOf([
        [near.barcode, "2.00"],
        [far.barcode, "3.00"],
        [farther.barcode, "4.00"],
      ]),
    );
    const after = await list();
    expect(after.total).toBe(listed.total + 3);
    expect(after.total_at_stake).toBe(listed.total_at_stake + 100 + 2 * 200 + 3 * 300);
    const ids = after.products.map((p) => p.product_id);
    expect(ids).toEqual(expect.arrayContaining([near.id, far.id, farther.id]));
    expect(await report()).toMatchObject({
      at_market: before.at_market + 200 + 2 * 300 + 3 * 400,
      products_priced: before.products_priced + 3,
      units_priced: before.units_priced + 6,
    });
  });

  it("the list is for managers and super_admin, and tokens with prices:write; the stock at market for whoever reads reports", async () => {
    const staff = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
    expect((await staff.get("/api/prices/under-market")).statusCode).toBe(403);
    expect((await staff.get("/api/reports/stock-value?from=2026-01-01&to=2026-01-02")).json<StockValueReport>().market_now).toBeDefined();
    const admin = caller(t.app, (await signedIn(t.app, "super_admin")).cookie);
    expect((await admin.get("/api/prices/under-market")).statusCode).toBe(200);
    expect((await withToken(await secretFor(["prices:write"]), "/api/prices/under-market")).statusCode).toBe(200);
    expect((await withToken(await secretFor(["products:read"]), "/api/prices/under-market")).statusCode).toBe(403);
    expect((await api.get("/api/prices/under-market?limit=201")).statusCode).toBe(400);
  });

  it("both routes are in the OpenAPI document with their operationIds", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json<{
      paths: Record<string, { get: { operationId: string } }>;
    }>();
    expect(doc.paths["/api/prices/market"]?.get.operationId).toBe("listMarketQuotes");
    expect(doc.paths["/api/prices/under-market"]?.get.operationId).toBe("listProductsUnderMarket");
  });
});
