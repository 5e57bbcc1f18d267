import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUYLIST_MESSAGES,
  BUYLIST_SUBMISSIONS_PER_WINDOW,
  type BuylistAnswer,
  type BuylistReceipt,
  type BuylistSubmission,
} from "../../../contract/buylist.js";
import type { CustomerDetail, TradeIn } from "../../../contract/counter.js";
import type { Product } from "../../../contract/products.js";
import { marketPrices, priceFeeds } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let feedId: number;
/** Every product of this file is named with it, so a search finds only them. */
const TAG = newBarcode("Buylist");
let wanted: Product;
let full: Product;
let unlimited: Product;
let dark: Product;
let unpriced: Product;
let disabled: Product;

const today = () => new Date().toISOString().slice(0, 10);

/** A product of this file with a buy limit (null: none) and a market price today (null: none). */
async function product(name: string, onHand: number, limit: number | null, market: number | null, byCondition?: Record<string, number>) {
  const p = await manager.create({ product_name: `${TAG} ${name}`, quantity_on_hand: onHand, cost: 4321, set_name: "Base Set" });
  if (limit !== null) expect((await manager.put(`/api/buy-settings/limits/${p.id}`, { buy_limit: limit })).statusCode).toBe(200);
  if (market !== null) {
    await t.app.db.insert(marketPrices).values({
      productId: p.id,
      feedId,
      day: today(),
      checkedOn: today(),
      finish: "normal",
      currency: "USD",
      market,
      byCondition: byCondition ?? null,
    });
  }
  return p;
}

/** Anonymous, as a customer's browser: from an address of its own (each test counts its own submissions). */
const list = (query: string) => t.app.inject({ method: "GET", url: `/api/buylist${query}` });
const submit = (body: unknown, remoteAddress: string) =>
  t.app.inject({ method: "POST", url: "/api/buylist/submissions", payload: body as object, remoteAddress });

const form = (lines: BuylistSubmission["lines"], email = `seller-${newBarcode("e")}@example.com`): BuylistSubmission => ({
  name: "Sam Seller",
  email,
  phone: "555-0100",
  payout: "credit",
  lines,
  note: "Binder of Base Set",
});

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  const [feed] = await t.app.db.insert(priceFeeds).values({ name: "Buylist test feed", format: "csv" }).returning();
  feedId = (feed as { id: number }).id;
  wanted = await product("Alpha wanted", 2, 5, 1000, { "Lightly Played": 800 });
  full = await product("Bravo full", 3, 3, 1000);
  unlimited = await product("Charlie no limit", 0, null, 1000);
  dark = await product("Delta darklisted", 0, 5, 1000);
  unpriced = await product("Echo unpriced", 0, 5, null);
  disabled = await product("Foxtrot disabled", 0, 5, 1000);
  expect((await manager.put(`/api/products/${disabled.id}/status`, { is_active: false })).statusCode).toBe(200);
  const res = await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70, darklist: [dark.id] });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/buylist (public)", () => {
  it("answers without a session the cards the shop wants, with offers per condition and never stock, limits or costs", async () => {
    const res = await list(`?q=${encodeURIComponent(TAG)}`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<BuylistAnswer>();
    expect(answer.items.map((i) => i.product_id)).toEqual([wanted.id]);
    expect(answer.has_more).toBe(false);
    expect(answer.currency).toBe("USD");
    const [item] = answer.items;
    expect(Object.keys(item ?? {}).sort()).toEqual(
      ["card_number", "max_quantity", "offers", "product_id", "product_name", "set_name", "vendor"].sort(),
    );
    expect(item?.offers).toEqual([
      { condition: "Near Mint", cash_cents: 500, credit_cents: 700 },
      { condition: "Lightly Played", cash_cents: 400, credit_cents: 560 },
    ]);
    // Wanted: 5 - 2 on hand.
    expect(item?.max_quantity).toBe(3);
    expect(res.body).not.toMatch(/quantity_on_hand|buy_limit|cost|4321/);
    // The full, unlimited, darklisted, unpriced and disabled ones are not on it.
    for (const p of [full, unlimited, dark, unpriced, disabled]) expect(res.body).not.toContain(p.product_name);
  });

  it("is paged and searched by name or set; says so in its OpenAPI operation (security: [])", async () => {
    const more = await product("Golf wanted", 0, 50, 2000);
    const first = (await list(`?q=${encodeURIComponent(TAG)}&limit=1`)).json<BuylistAnswer>();
    expect(first.items.map((i) => i.product_id)).toEqual([wanted.id]);
    expect(first.has_more).toBe(true);
    const second = (await list(`?q=${encodeURIComponent(TAG)}&limit=1&offset=1`)).json<BuylistAnswer>();
    expect(second.items.map((i) => ({ id: i.product_id, most: i.max_quantity }))).toEqual([{ id: more.id, most: 20 }]);
    expect(second.has_more).toBe(false);
    expect((await list(`?q=${encodeURIComponent(`${TAG} golf`)}`)).json<BuylistAnswer>().items).toHaveLength(1);
    expect((await list("?limit=1000")).statusCode).toBe(400);

    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json<{
      paths: Record<string, Record<string, { security?: unknown[]; operationId?: string }>>;
    }>();
    expect(doc.paths["/api/buylist"]?.get).toMatchObject({ security: [], operationId: "getBuylist" });
    expect(doc.paths["/api/buylist/submissions"]?.post).toMatchObject({ security: [], operationId: "submitBuylist" });
  });
});

describe("POST /api/buylist/submissions (public)", () => {
  it("creates a pending trade-in marked online that staff see in the drafts, for the customer matched by email", async () => {
    const email = `Casey-${newBarcode("m")}@Example.com`;
    const res = await submit(form([{ product_id: wanted.id, condition: "Lightly Played", quantity: 2 }], email), "10.1.0.1");
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json<{ submission: BuylistReceipt }>().submission;
    expect(receipt).toMatchObject({ status: "pending", units: 2, cash_cents: 800, credit_cents: 1120 });
    expect(res.body).not.toMatch(/quantity_on_hand|cost|buy_limit/);

    const drafts = (await inventory.get("/api/trade-ins?status=draft")).json<TradeIn[]>();
    const draft = drafts.find((d) => d.number === receipt.reference);
    expect(draft).toMatchObject({ status: "draft", source: "online", payout: "credit", credit_cents: 1120, created_by: "Online buylist" });
    expect(draft?.lines).toMatchObject([{ product_id: wanted.id, condition: "Lightly Played", quantity: 2, offer_cash_cents: 400 }]);
    expect(draft?.note).toContain("Binder of Base Set");
    const customer = (await inventory.get(`/api/customers/${draft?.customer_id}`)).json<CustomerDetail>().customer;
    expect(customer).toMatchObject({ name: "Sam Seller", email, phone: "555-0100", credit_balance: 0 });

    // The same email in other letters: the same customer, whose record the form does not change.
    const again = await submit(
      { ...form([{ product_id: wanted.id, quantity: 1 }], email.toLowerCase()), name: "Someone Else", payout: "cash" },
      "10.1.0.1",
    );
    expect(again.statusCode, again.body).toBe(201);
    const second = (await inventory.get("/api/trade-ins?status=draft"))
      .json<TradeIn[]>()
      .find((d) => d.number === again.json<{ submission: BuylistReceipt }>().submission.reference);
    expect(second?.customer_id).toBe(draft?.customer_id);
    expect(second).toMatchObject({ payout: "cash", cash_cents: 500 });
    expect((await inventory.get(`/api/customers/${draft?.customer_id}`)).json<CustomerDetail>().customer.name).toBe("Sam Seller");

    // Staff complete it when the cards arrive: accepted like any draft, into stock.
    const accepted = await inventory.post(`/api/trade-ins/${draft?.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<{ trade_in: TradeIn }>().trade_in).toMatchObject({ status: "accepted", source: "online" });
  });

  it("refuses a darklisted card, one the shop wants no more of and more than it takes, writing nothing", async () => {
    const before = (await inventory.get("/api/trade-ins?status=draft&limit=200")).json<TradeIn[]>().length;
    const darkRes = await submit(
      form([
        { product_id: wanted.id, quantity: 1 },
        { product_id: dark.id, quantity: 1 },
      ]),
      "10.2.0.1",
    );
    expect(darkRes.statusCode).toBe(409);
    expect(darkRes.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.notBuying(1));
    const fullRes = await submit(form([{ product_id: full.id, quantity: 1 }]), "10.2.0.1");
    expect(fullRes.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.notBuying(0));
    const many = await submit(form([{ product_id: unlimited.id, quantity: 1 }]), "10.2.0.1");
    expect(many.statusCode).toBe(409);
    const few = await product("Hotel wanted twice", 1, 3, 1000, { "Lightly Played": 800 });
    const over = await submit(
      form([
        { product_id: few.id, condition: "Near Mint", quantity: 1 },
        { product_id: few.id, condition: "Lightly Played", quantity: 2 },
      ]),
      "10.2.0.1",
    );
    expect(over.statusCode).toBe(409);
    expect(over.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.tooMany(1, 2));
    expect((await inventory.get("/api/trade-ins?status=draft&limit=200")).json<TradeIn[]>()).toHaveLength(before);
  });

  it("says what is wrong with a form, refuses a filled honeypot, too many lines and too large a body", async () => {
    const bad = await submit({ ...form([]), email: "not-an-email" }, "10.3.0.1");
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(BUYLIST_MESSAGES.email);
    expect(bad.body).toContain(BUYLIST_MESSAGES.linesRequired);
    const noName = await submit({ ...form([{ product_id: wanted.id, quantity: 1 }]), name: " " }, "10.3.0.1");
    expect(noName.body).toContain("Name is required");
    const honey = await submit({ ...form([{ product_id: wanted.id, quantity: 1 }]), website: "http://spam.example" }, "10.3.0.1");
    expect(honey.statusCode).toBe(400);
    expect(honey.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.refused);
    const lines = Array.from({ length: 51 }, (_, i) => ({ product_id: i + 1, quantity: 1 }));
    expect((await submit(form(lines), "10.3.0.1")).statusCode).toBe(400);
    const huge = await submit({ ...form([{ product_id: wanted.id, quantity: 1 }]), note: "x".repeat(20_000) }, "10.3.0.1");
    expect(huge.statusCode).toBe(413);
    const dupe = await submit(
      form([
        { product_id: wanted.id, quantity: 1 },
        { product_id: wanted.id, quantity: 1 },
      ]),
      "10.3.0.1",
    );
    expect(dupe.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.duplicate(1));
  });

  it(`answers 429 after ${BUYLIST_SUBMISSIONS_PER_WINDOW} submissions from one address, and not to another address`, async () => {
    const address = "10.4.0.1";
    // Refused ones count too (a darklisted card): only a form refused by its validation does not.
    for (let i = 0; i < BUYLIST_SUBMISSIONS_PER_WINDOW; i++) {
      expect((await submit(form([{ product_id: dark.id, quantity: 1 }]), address)).statusCode).toBe(409);
    }
    const limited = await submit(form([{ product_id: wanted.id, quantity: 1 }]), address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toBe(BUYLIST_MESSAGES.rateLimited);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await submit(form([{ product_id: dark.id, quantity: 1 }]), "10.4.0.2")).statusCode).toBe(409);
  });

  it("passes the origin check: the shop's own page may post it, another site's may not", async () => {
    const body = form([{ product_id: dark.id, quantity: 1 }]);
    const own = await t.app.inject({
      method: "POST",
      url: "/api/buylist/submissions",
      payload: body,
      remoteAddress: "10.5.0.1",
      headers: { host: "shop.example", origin: "https://shop.example" },
    });
    expect(own.statusCode).toBe(409);
    const other = await t.app.inject({
      method: "POST",
      url: "/api/buylist/submissions",
      payload: body,
      remoteAddress: "10.5.0.1",
      headers: { host: "shop.example", origin: "https://evil.example" },
    });
    expect(other.statusCode).toBe(403);
  });
});
