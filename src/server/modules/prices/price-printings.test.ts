import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedRun, PriceFeed, ProductMarket } from "../../../contract/prices.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { tcgcsvGroupsUrl } from "./price-fetch.js";

/**
 * A feed's printings reach the right products: a first edition only the first-edition product, and
 * a TCGCSV feed (fetched from its URL, or uploaded with its groups) its set, so its cards match by
 * set + number too. Fixtures are real cards (feeds/fixtures/README.md).
 */

const fixture = (name: string) => readFile(new URL(`./feeds/fixtures/${name}`, import.meta.url));

let t: TestApp;
let cookie: string;
let api: ReturnType<typeof caller>;
/** Serves the TCGCSV fixtures where TCGCSV publishes them: /tcgplayer/3/groups, /tcgplayer/3/2534/products and /prices. */
let tcgcsv: Server;
let base: string;
const asked: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: ["localhost"] });
  cookie = (await signedIn(t.app, "manager")).cookie;
  api = caller(t.app, cookie);
  const files: Record<string, Buffer> = {
    "/tcgplayer/3/groups": await fixture("tcgcsv-groups.json"),
    "/tcgplayer/3/2534/products": await fixture("tcgcsv-products.json"),
    "/tcgplayer/3/2534/prices": await fixture("tcgcsv-prices.json"),
  };
  tcgcsv = createServer((req, res) => {
    asked.push(req.url ?? "");
    const file = files[req.url ?? ""];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(file);
  });
  tcgcsv.listen(0, "127.0.0.1");
  await once(tcgcsv, "listening");
  base = `http://localhost:${(tcgcsv.address() as AddressInfo).port}/tcgplayer`;
});
afterAll(async () => {
  tcgcsv.close();
  await t.close();
});

async function newFeed(format: PriceFeed["format"], urls: { url?: string; products_url?: string } = {}): Promise<PriceFeed> {
  const res = await api.post("/api/prices/feeds", { name: newBarcode(`Feed ${format} `), format, ...urls });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A multipart/form-data body with these file fields in this order, as a browser's FormData sends it. */
async function upload(feedId: number, parts: Array<[field: string, data: Buffer]>) {
  const form = new FormData();
  for (const [field, data] of parts) form.append(field, new Blob([new Uint8Array(data)], { type: "application/json" }), `${field}.json`);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return t.app.inject({
    method: "POST",
    url: `/api/prices/feeds/${feedId}/run`,
    headers: { cookie, "content-type": request.headers.get("content-type") as string },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

async function latest(productId: number): Promise<ProductMarket["latest"]> {
  const res = await api.get(`/api/products/${productId}/market-prices`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProductMarket>().latest;
}

async function card(fields: Record<string, unknown>, market: Record<string, unknown>) {
  const product = await api.create({ product_name: "Test card", price: 100, ...fields });
  const res = await api.put(`/api/products/${product.id}/market`, market);
  expect(res.statusCode, res.body).toBe(200);
  return product;
}

describe("first editions", () => {
  it("a first-edition product takes only the first edition's prices, an unlimited one only the unlimited card's, by id and by set + number", async () => {
    // pokemontcg.io's Blaine's Charizard (gym2-2): 1stEditionHolofoil $699.99, unlimitedHolofoil $594.19.
    const firstById = await card({}, { pokemontcg_id: "gym2-2", finish: "first_edition_holofoil" });
    const unlimitedById = await card({}, { pokemontcg_id: "gym2-2", finish: "holofoil" });
    const firstBySet = await card({ set_name: "Gym Challenge", card_number: "2/132" }, { finish: "first_edition_holofoil" });
    const unlimitedBySet = await card({ set_name: "Gym Challenge", card_number: "2" }, { finish: "holofoil" });
    // No normal printing of it, first edition or not: no price.
    const normal = await card({}, { pokemontcg_id: "gym2-2", finish: "first_edition_normal" });

    const feed = await newFeed("pokemontcg");
    const res = await upload(feed.id, [["file", await fixture("pokemontcg-cards.json")]]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FeedRun>()).toMatchObject({ status: "done", problems: [] });

    for (const p of [firstById, firstBySet]) {
      expect(await latest(p.id)).toMatchObject({ finish: "first_edition_holofoil", market: 69_999, low: 69_669, mid: 200_000 });
    }
    for (const p of [unlimitedById, unlimitedBySet]) {
      expect(await latest(p.id)).toMatchObject({ finish: "holofoil", market: 59_419, low: 43_799, mid: 73_412 });
    }
    expect(await latest(normal.id)).toBeNull();
    // The finish is checked where it is set.
    expect((await api.put(`/api/products/${normal.id}/market`, { finish: "1st_edition" })).statusCode).toBe(400);
  });
});

describe("a TCGCSV feed with its group", () => {
  it("fetched from its URL, reads its group from /{categoryId}/groups: its cards match by set + number in their finish", async () => {
    const tag = newBarcode("");
    // Will (208/236) as a set's name and number; Venusaur & Snivy GX (1/236) by the set's abbreviation.
    const will = await card({ set_name: "SM - Cosmic Eclipse", card_number: "208", product_name: `Will ${tag}` }, {});
    const willReverse = await card({ set_name: "sm - cosmic eclipse", card_number: "208/236" }, { finish: "reverse_holofoil" });
    const venusaur = await card({ set_name: "SM12", card_number: "001/236" }, { finish: "holofoil" });
    const feed = await newFeed("tcgcsv", { url: `${base}/3/2534/prices`, products_url: `${base}/3/2534/products` });
    asked.length = 0;
    const run = await api.post(`/api/prices/feeds/${feed.id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json<FeedRun>()).toMatchObject({ status: "done", trigger: "request", records: 3, problems: [] });
    expect([...asked].sort()).toEqual(["/tcgplayer/3/2534/prices", "/tcgplayer/3/2534/products", "/tcgplayer/3/groups"]);
    expect(await latest(will.id)).toMatchObject({ finish: "normal", market: 29 });
    expect(await latest(willReverse.id)).toMatchObject({ finish: "reverse_holofoil", market: 53 });
    expect(await latest(venusaur.id)).toMatchObject({ finish: "holofoil", market: 487 });

    // Uploaded the same: with the groups between the products and the prices, the same set.
    const uploaded = await newFeed("tcgcsv");
    const withGroups = await upload(uploaded.id, [
      ["products", await fixture("tcgcsv-products.json")],
      ["groups", await fixture("tcgcsv-groups.json")],
      ["prices", await fixture("tcgcsv-prices.json")],
    ]);
    expect(withGroups.statusCode, withGroups.body).toBe(200);
    expect(withGroups.json<FeedRun>()).toMatchObject({ status: "done", records: 3, matched: 3 });
    const found = await api.get(`/api/prices/feeds/${uploaded.id}/cards?q=will`);
    expect(found.json<Array<{ set_code: string; set_name: string }>>()[0]).toMatchObject({
      set_code: "SM12",
      set_name: "SM - Cosmic Eclipse",
    });
    // Without them, as before: no set, so nothing matches by set + number.
    const bare = await newFeed("tcgcsv");
    const withoutGroups = await upload(bare.id, [
      ["products", await fixture("tcgcsv-products.json")],
      ["prices", await fixture("tcgcsv-prices.json")],
    ]);
    expect(withoutGroups.json<FeedRun>()).toMatchObject({ status: "done", records: 3, matched: 0 });
    expect((await upload(bare.id, [["prices", await fixture("tcgcsv-prices.json")]])).statusCode).toBe(400);
  });

  it("a groups list without the products' group fails the run, changing nothing; an address of another shape fetches no groups", async () => {
    const feed = await newFeed("tcgcsv");
    const groups = Buffer.from(JSON.stringify({ success: true, errors: [], totalItems: 0, results: [] }));
    const res = await upload(feed.id, [
      ["products", await fixture("tcgcsv-products.json")],
      ["groups", groups],
      ["prices", await fixture("tcgcsv-prices.json")],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FeedRun>()).toMatchObject({
      status: "failed",
      error: "TCGCSV groups: the products' group 2534 is not in the groups list",
    });
    expect(tcgcsvGroupsUrl("https://tcgcsv.com/tcgplayer/3/2534/prices")).toBe("https://tcgcsv.com/tcgplayer/3/groups");
    expect(tcgcsvGroupsUrl("https://tcgcsv.com/tcgplayer/3/2534/prices?day=1")).toBe("https://tcgcsv.com/tcgplayer/3/groups");
    expect(tcgcsvGroupsUrl("https://prices.example.com/pokemon/prices.json")).toBeUndefined();
  });
});
