import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportSummary } from "../../../contract/imports.js";
import type { FeedRun, PriceFeed, PriceProposal } from "../../../contract/prices.js";
import { DEFAULT_PRICING_RULES, type PricingRules } from "../../../contract/pricing-rules.js";
import type { Product } from "../../../contract/products.js";
import { signedIn } from "../../test/factories.js";
import { multipart } from "../../test/photo-files.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { eventually } from "../../test/webhook-receiver.js";
import { WebhookTargets } from "../webhooks/webhook-targets.js";
import { PriceFeedSchedule } from "./price-schedule.js";

/**
 * Auto-apply: after a feed's run, with auto-apply on, the moves under its percent are accepted as
 * a manager's accept is (one import, audited, undoable), as the user who ran the feed or, for the
 * daily fetch, the manager who saved the rules; the rest wait for review. Off, nothing changes.
 */

let t: TestApp;
let cookie: string;
let username: string;
let api: ReturnType<typeof caller>;

beforeAll(async () => {
  // The app's own daily fetch looks at 23:59 only (testConfig): the test's schedule below is the one that fetches.
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: ["localhost"], TIMEZONE: "UTC" });
  const manager = await signedIn(t.app, "manager");
  cookie = manager.cookie;
  username = manager.user.username;
  api = caller(t.app, cookie);
});
afterAll(async () => {
  await t.close();
});

async function rules(next: Partial<PricingRules>): Promise<void> {
  const res = await api.put("/api/prices/rules", { ...DEFAULT_PRICING_RULES, ...next });
  expect(res.statusCode, res.body).toBe(200);
}

async function newFeed(url?: string): Promise<PriceFeed> {
  const res = await api.post("/api/prices/feeds", { name: newBarcode("Feed "), format: "csv", ...(url ? { url } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function upload(feedId: number, text: string): Promise<FeedRun> {
  const body = await multipart(Buffer.from(text), "feed.csv", "text/csv");
  const res = await t.app.inject({
    method: "POST",
    url: `/api/prices/feeds/${feedId}/run`,
    headers: { cookie, "content-type": body.contentType },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function price(id: number): Promise<number | null> {
  const res = await api.get("/api/products?since=0");
  const found = res.json<{ products: Product[] }>().products.find((p) => p.id === id);
  if (!found) throw new Error(`product ${id} not found`);
  return found.price;
}

async function pending(ids: number[]): Promise<PriceProposal[]> {
  const res = await api.get("/api/prices/proposals?limit=500");
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ proposals: PriceProposal[] }>().proposals.filter((p) => ids.includes(p.product_id));
}

async function imports(): Promise<ImportSummary[]> {
  const res = await api.get("/api/imports?limit=100");
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Products priced $10.00 found by a Cardmarket id, and a CSV feed that prices each at its market. */
async function cards(markets: number[]) {
  const made: Product[] = [];
  for (const _ of markets) {
    const p = await api.create({ product_name: newBarcode("Auto "), price: 1_000 });
    await api.put(`/api/products/${p.id}/market`, { external_ids: { cardmarket: `cm-${p.id}` } });
    made.push(p);
  }
  const csv = ["id:cardmarket,price", ...made.map((p, i) => `cm-${p.id},${((markets[i] ?? 0) / 100).toFixed(2)}`)].join("\n");
  return { made, csv };
}

/** Frozen, a product is left out of later tests' runs (the rules propose nothing for it). */
async function freeze(products: Product[]): Promise<void> {
  for (const p of products) expect((await api.put(`/api/products/${p.id}/market`, { price_frozen: true })).statusCode).toBe(200);
}

async function done(importId: string): Promise<ImportSummary> {
  return eventually(async () => (await imports()).find((j) => j.id === importId && j.status === "done"), 20_000, "the auto-applied import");
}

describe("auto-apply", () => {
  it("off: a run changes no price and starts no import; every proposal waits for review", async () => {
    await rules({ auto_apply_under_percent: null });
    const { made, csv } = await cards([1_050, 2_000]);
    const before = (await imports()).length;
    expect(await upload((await newFeed()).id, csv)).toMatchObject({ status: "done", matched: 2, proposals: 2 });
    expect(await Promise.all(made.map((p) => price(p.id)))).toEqual([1_000, 1_000]);
    expect((await imports()).length).toBe(before);
    expect((await pending(made.map((p) => p.id))).map((p) => p.new_price).sort()).toEqual([1_050, 2_000]);
    await freeze(made);
  });

  it("on: a move under its percent is applied after the run as one undoable, audited import by who ran it; bigger moves wait", async () => {
    // Under 10 % applies; 10 % exactly, 20 % and a big move (over 30 %) wait; so does a product that had no price.
    await rules({ auto_apply_under_percent: 10, big_move_percent: 30 });
    const { made, csv } = await cards([1_050, 1_100, 1_200, 2_000, 990]);
    const [small, atTen, twenty, big, down] = made as [Product, Product, Product, Product, Product];
    const free = await api.create({ product_name: newBarcode("Free "), price: null });
    await api.put(`/api/products/${free.id}/market`, { external_ids: { cardmarket: `cm-${free.id}` } });
    const before = (await imports()).map((j) => j.id);

    const run = await upload((await newFeed()).id, `${csv}\ncm-${free.id},1.00`);
    expect(run).toMatchObject({ status: "done", matched: 6, proposals: 6 });
    const jobs = (await imports()).filter((j) => !before.includes(j.id));
    expect(jobs).toHaveLength(1);
    const job = jobs[0] as ImportSummary;
    expect(job.user_name).toBe(`${username} · auto-apply after feed run ${run.id}`);
    expect(await done(job.id)).toMatchObject({ rows: 2, updated: 2 });

    expect(await price(small.id)).toBe(1_050);
    expect(await price(down.id)).toBe(990);
    for (const p of [atTen, twenty, big]) expect(await price(p.id)).toBe(1_000);
    expect(await price(free.id)).toBeNull();
    const left = await pending([...made, free].map((p) => p.id));
    expect(left.map((p) => [p.product_id, p.new_price, p.big])).toEqual(
      expect.arrayContaining([
        [atTen.id, 1_100, false],
        [twenty.id, 1_200, false],
        [big.id, 2_000, true],
        [free.id, 100, false],
      ]),
    );
    expect(left).toHaveLength(4);

    // Audited as the manager who ran it, saying it was auto-apply after which run.
    const audit = await api.get(`/api/audit/product/${small.id}`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json<Array<{ user_name: string; changed_fields: string[] }>>()[0]).toMatchObject({
      user_name: job.user_name,
      changed_fields: ["price"],
    });

    const undo = await api.post(`/api/imports/${job.id}/undo`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await price(small.id)).toBe(1_000);
    expect(await price(down.id)).toBe(1_000);
    await freeze([...made, free]);
  });

  it("the daily fetch auto-applies as the manager who saved the rules", async () => {
    await rules({ auto_apply_under_percent: 10, big_move_percent: 30 });
    const { made, csv } = await cards([1_080, 3_000]);
    const [small, big] = made as [Product, Product];
    const source = createServer((_req, res) => res.writeHead(200, { "content-type": "text/csv" }).end(csv));
    source.listen(0, "127.0.0.1");
    await once(source, "listening");
    const before = (await imports()).map((j) => j.id);
    try {
      const feed = await newFeed(`http://localhost:${(source.address() as AddressInfo).port}/prices.csv`);
      const schedule = new PriceFeedSchedule(
        t.database,
        new WebhookTargets(["localhost"]),
        t.app.log,
        { at: "00:00", timezone: "UTC", currency: t.app.config.CURRENCY },
        { runner: t.app.importRunner, events: t.app.events, config: t.app.config },
      );
      await schedule.runDue();
      await schedule.close();
      const runs = await api.get("/api/prices/feeds");
      const run = runs.json<PriceFeed[]>().find((f) => f.id === feed.id)?.last_run;
      expect(run).toMatchObject({ status: "done", trigger: "schedule", matched: 2 });
      const jobs = (await imports()).filter((j) => !before.includes(j.id));
      expect(jobs.map((j) => j.user_name)).toEqual([`${username} · auto-apply (rules they saved) after scheduled feed run ${run?.id}`]);
      await done(jobs[0]?.id as string);
    } finally {
      source.close();
    }
    expect(await price(small.id)).toBe(1_080);
    expect(await price(big.id)).toBe(1_000);
    expect((await pending([big.id])).map((p) => p.new_price)).toEqual([3_000]);
  });
});
