import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantityAuditEntry } from "../../../contract/audit.js";
import type { BuySettingsAnswer, CreditLedger, Customer, CustomerDetail, TradeIn, TradeInBody } from "../../../contract/counter.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { creditEntries, marketPrices, priceFeeds, products, tradeIns, webhookDeliveries } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let feedId: number;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

beforeAll(async () => {
  // A webhook to a closed port here: its deliveries are written (and fail to send), which is what is looked at.
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"] });
  manager = await signIn("manager");
  inventory = await signIn("inventory");
  streamer = await signIn("streamer");
  const [feed] = await t.app.db.insert(priceFeeds).values({ name: "Counter test feed", format: "csv" }).returning();
  feedId = (feed as { id: number }).id;
  const res = await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70 });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

/** A product with a market price today (cents), and the feed's prices per condition. */
async function priced(
  market: number | null,
  overrides: Record<string, unknown> = {},
  byCondition?: Record<string, number>,
): Promise<Product> {
  const product = await manager.create({ quantity_on_hand: 0, set_name: "Base Set", ...overrides });
  if (market !== null) {
    await t.app.db.insert(marketPrices).values({
      productId: product.id,
      feedId,
      day: today(),
      checkedOn: today(),
      finish: "normal",
      currency: "USD",
      market,
      byCondition: byCondition ?? null,
    });
  }
  return product;
}

async function newCustomer(): Promise<Customer> {
  const res = await inventory.post("/api/customers", { name: `Trader ${newBarcode("C")}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ customer: Customer }>().customer;
}

async function draft(body: TradeInBody, by = inventory): Promise<TradeIn> {
  const res = await by.post("/api/trade-ins", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ trade_in: TradeIn }>().trade_in;
}

const productRow = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0];

describe("offers", () => {
  it("are market x the cash % or credit %, per condition, overridden per vendor or set, higher on the hotlist, none on the darklist", async () => {
    const plain = await priced(1000, {}, { "Lightly Played": 800 });
    const wizards = await priced(2000, { vendor: "Wizards" });
    const hot = await priced(1000);
    const dark = await priced(1000);
    const unpriced = await priced(null);
    const set = await manager.put("/api/buy-settings", {
      cash_percent: 50,
      credit_percent: 70,
      overrides: [{ vendor: "Wizards", cash_percent: 60, credit_percent: 80 }],
      hotlist: [hot.id],
      hotlist_cash_percent: 75,
      hotlist_credit_percent: 90,
      darklist: [dark.id],
    });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const d = await draft({
        lines: [
          { product_id: plain.id, quantity: 2 },
          { product_id: plain.id, condition: "Lightly Played", quantity: 1 },
          { product_id: wizards.id, quantity: 1 },
          { product_id: hot.id, quantity: 1 },
          { product_id: dark.id, quantity: 1 },
          { product_id: unpriced.id, quantity: 1 },
          { product_id: unpriced.id, quantity: 1, offer_cash_cents: 150, offer_credit_cents: 200 },
        ],
      });
      expect(d.lines.map((l) => [l.market_cents, l.offer_cash_cents, l.offer_credit_cents, l.struck])).toEqual([
        [1000, 500, 700, false],
        [800, 400, 560, false],
        [2000, 1200, 1600, false],
        [1000, 750, 900, false],
        [1000, 0, 0, true],
        [null, 0, 0, false],
        [null, 150, 200, false],
      ]);
      expect(d.lines[4]?.note).toMatch(/Darklisted/);
      expect(d.lines[5]?.note).toMatch(/No market price/);
      expect(d.totals).toEqual({ cash_cents: 2 * 500 + 400 + 1200 + 750 + 150, credit_cents: 2 * 700 + 560 + 1600 + 900 + 200, units: 7 });
      expect(d).toMatchObject({ status: "draft", payout: "cash", cash_cents: d.totals.cash_cents, credit_cents: 0 });
    } finally {
      await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70 });
    }
  });

  it("are capped by the buy limit: the units the shop still wants (limit - on hand), a line past it struck", async () => {
    const p = await priced(1000, { quantity_on_hand: 3 });
    expect((await manager.put(`/api/buy-settings/limits/${p.id}`, { buy_limit: 5 })).statusCode).toBe(200);
    const d = await draft({
      lines: [
        { product_id: p.id, quantity: 4 },
        { product_id: p.id, quantity: 1 },
      ],
    });
    expect(d.lines.map((l) => [l.quantity, l.struck])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(d.lines[0]?.note).toBe("Capped by the buy limit: 2 wanted");
    const settings = (await inventory.get("/api/buy-settings")).json<BuySettingsAnswer>();
    expect(settings.limits).toContainEqual({ product_id: p.id, buy_limit: 5 });
  });
});

describe("accepting a trade-in", () => {
  it("puts every line into stock, averages the price paid into the cost and writes the credit, in one transaction", async () => {
    const customer = await newCustomer();
    const a = await priced(1000, { quantity_on_hand: 10, cost: 300 });
    const b = await priced(500);
    const d = await draft({
      customer_id: customer.id,
      payout: "credit",
      lines: [
        { product_id: a.id, quantity: 2 },
        { product_id: b.id, quantity: 3 },
      ],
    });
    expect(d).toMatchObject({ cash_cents: 0, credit_cents: 2 * 700 + 3 * 350 });
    const rec = recordEvents(t.app);
    const res = await inventory.post(`/api/trade-ins/${d.id}/accept`);
    rec.stop();
    expect(res.statusCode, res.body).toBe(200);
    const accepted = res.json<{ trade_in: TradeIn }>().trade_in;
    expect(accepted).toMatchObject({ status: "accepted", credit_cents: 2450, cash_cents: 0 });
    expect(accepted.accepted_by).not.toBeNull();

    expect(await productRow(a.id)).toMatchObject({ quantityOnHand: 12, cost: Math.round((300 * 10 + 700 * 2) / 12) });
    expect(await productRow(b.id)).toMatchObject({ quantityOnHand: 3, cost: 350 });
    const audit = (await manager.get(`/api/audit/quantity/${a.id}`)).json<QuantityAuditEntry[]>();
    expect(audit[0]).toMatchObject({ quantity_change: 2, quantity_after: 12, notes: `Trade-in #${d.number}` });
    expect(rec.events.map((e) => [e.type, e.data.id, e.data.quantity_change, e.data.quantity_on_hand, e.data.product?.cost])).toEqual([
      ["quantity_changed", a.id, 2, 12, 367],
      ["quantity_changed", b.id, 3, 3, 350],
    ]);

    const ledger = (await inventory.get(`/api/customers/${customer.id}/credit`)).json<CreditLedger>();
    expect(ledger.balance).toBe(2450);
    expect(ledger.entries).toMatchObject([{ amount: 2450, kind: "trade_in", trade_in_id: d.id, reason: `Trade-in #${d.number}` }]);
    const page = (await inventory.get(`/api/customers/${customer.id}`)).json<CustomerDetail>();
    expect(page.trade_ins.map((x) => x.id)).toEqual([d.id]);
    expect(page.customer.credit_balance).toBe(2450);

    // Accepted: no edit, no void, no second accept.
    expect((await inventory.put(`/api/trade-ins/${d.id}`, { lines: [] })).statusCode).toBe(409);
    expect((await inventory.post(`/api/trade-ins/${d.id}/void`)).statusCode).toBe(409);
    expect((await inventory.post(`/api/trade-ins/${d.id}/accept`)).statusCode).toBe(409);
  });

  it("a split pays the cash part given and the rest of the credit offer in the same share; each unit's cost is that mix", async () => {
    const customer = await newCustomer();
    const p = await priced(1000);
    const d = await draft({ customer_id: customer.id, payout: "split", cash_cents: 500, lines: [{ product_id: p.id, quantity: 2 }] });
    // Offer: 1000 cash or 1400 credit; half the cash taken, so half the credit.
    expect(d).toMatchObject({ cash_cents: 500, credit_cents: 700 });
    expect((await inventory.post(`/api/trade-ins/${d.id}/accept`)).statusCode).toBe(200);
    expect(await productRow(p.id)).toMatchObject({ quantityOnHand: 2, cost: 600 });
    expect((await inventory.get(`/api/customers/${customer.id}/credit`)).json<CreditLedger>().balance).toBe(700);
    const bad = await inventory.post("/api/trade-ins", { payout: "split", cash_cents: 5000, lines: [{ product_id: p.id, quantity: 1 }] });
    expect(bad.statusCode).toBe(400);
  });

  it("changes nothing when a line's product was disabled since: the whole accept is refused (409)", async () => {
    const customer = await newCustomer();
    const a = await priced(1000, { quantity_on_hand: 4, cost: 100 });
    const b = await priced(1000, { quantity_on_hand: 1 });
    const d = await draft({
      customer_id: customer.id,
      payout: "credit",
      lines: [
        { product_id: a.id, quantity: 1 },
        { product_id: b.id, quantity: 1 },
      ],
    });
    expect((await manager.put(`/api/products/${b.id}/status`, { is_active: false })).statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    const res = await inventory.post(`/api/trade-ins/${d.id}/accept`);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string }>().error).toBe("Line 2: the product is unknown or disabled");
    expect(await snapshot(t.app.db)).toEqual(before);
    expect((await t.app.db.select().from(tradeIns).where(eq(tradeIns.id, d.id)))[0]?.status).toBe("draft");
    expect(await t.app.db.select().from(creditEntries).where(eq(creditEntries.customerId, customer.id))).toEqual([]);
  });

  it("two staff accepting the same draft at once apply it once: one 200, one 409", async () => {
    const customer = await newCustomer();
    const p = await priced(1000, { quantity_on_hand: 1 });
    const d = await draft({ customer_id: customer.id, payout: "credit", lines: [{ product_id: p.id, quantity: 3 }] });
    const other = await signIn("inventory");
    const answers = await Promise.all([inventory.post(`/api/trade-ins/${d.id}/accept`), other.post(`/api/trade-ins/${d.id}/accept`)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await productRow(p.id))?.quantityOnHand).toBe(4);
    const ledger = (await inventory.get(`/api/customers/${customer.id}/credit`)).json<CreditLedger>();
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.balance).toBe(2100);
  });

  it("credit needs a customer; a draft with no line to buy cannot be accepted; a draft is voided and stays void", async () => {
    const p = await priced(1000);
    const noCustomer = await draft({ payout: "credit", lines: [{ product_id: p.id, quantity: 1 }] });
    expect((await inventory.post(`/api/trade-ins/${noCustomer.id}/accept`)).statusCode).toBe(400);
    const empty = await draft({ lines: [{ product_id: p.id, quantity: 1, struck: true }] });
    expect((await inventory.post(`/api/trade-ins/${empty.id}/accept`)).statusCode).toBe(400);
    const voided = await inventory.post(`/api/trade-ins/${empty.id}/void`);
    expect(voided.statusCode).toBe(200);
    expect(voided.json<{ trade_in: TradeIn }>().trade_in).toMatchObject({ status: "void" });
    expect((await inventory.post(`/api/trade-ins/${empty.id}/accept`)).statusCode).toBe(409);
    expect((await inventory.get(`/api/trade-ins?status=void`)).json<TradeIn[]>().map((x) => x.id)).toContain(empty.id);
    expect((await productRow(p.id))?.quantityOnHand).toBe(0);
  });
});

describe("webhooks and live events", () => {
  it("an accepted trade-in is a stock change like any other: its webhooks are written in its transaction, none names the customer", async () => {
    const hook = await manager.post("/api/webhooks", {
      url: "http://127.0.0.1:9/hook",
      events: ["inventory.quantity_changed", "product.updated"],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json<{ webhook: { id: number } }>().webhook.id;
    try {
      const res = await inventory.post("/api/customers", { name: "Wendy Webhook", email: "wendy@example.com" });
      const customer = res.json<{ customer: Customer }>().customer;
      const p = await priced(1000, { quantity_on_hand: 1, cost: 100 });
      const d = await draft({ customer_id: customer.id, payout: "credit", lines: [{ product_id: p.id, quantity: 1 }] });
      const rec = recordEvents(t.app);
      expect((await inventory.post(`/api/trade-ins/${d.id}/accept`)).statusCode).toBe(200);
      rec.stop();
      // In the order they were written (PostgreSQL returns rows in no set order without one).
      const rows = await t.app.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.productId, p.id))
        .orderBy(webhookDeliveries.id);
      expect(rows.filter((r) => r.webhookId === webhookId).map((r) => r.type)).toEqual(["inventory.quantity_changed", "product.updated"]);
      expect(JSON.stringify(rows.map((r) => r.data))).toContain(`Trade-in #${d.number}`);
      expect(JSON.stringify([rows.map((r) => r.data), rec.events])).not.toMatch(/Wendy|wendy@example/);
    } finally {
      await manager.delete(`/api/webhooks/${webhookId}`);
    }
  });
});

describe("who may", () => {
  it("inventory runs trade-ins but not the buy settings; managers set them; streamers get 403", async () => {
    const p = await priced(1000);
    const d = await draft({ lines: [{ product_id: p.id, quantity: 1 }] });
    const edited = await inventory.put(`/api/trade-ins/${d.id}`, { lines: [{ product_id: p.id, quantity: 2 }] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ trade_in: TradeIn }>().trade_in.totals.units).toBe(2);
    expect((await inventory.get(`/api/trade-ins/${d.id}`)).statusCode).toBe(200);
    expect((await inventory.get("/api/buy-settings")).statusCode).toBe(200);
    expect((await inventory.put("/api/buy-settings", { cash_percent: 90, credit_percent: 95 })).statusCode).toBe(403);
    expect((await inventory.put(`/api/buy-settings/limits/${p.id}`, { buy_limit: 1 })).statusCode).toBe(403);
    for (const res of [
      await streamer.get("/api/trade-ins"),
      await streamer.post("/api/trade-ins", { lines: [] }),
      await streamer.get(`/api/trade-ins/${d.id}`),
      await streamer.put(`/api/trade-ins/${d.id}`, { lines: [] }),
      await streamer.post(`/api/trade-ins/${d.id}/accept`),
      await streamer.post(`/api/trade-ins/${d.id}/void`),
      await streamer.get("/api/buy-settings"),
      await streamer.put("/api/buy-settings", { cash_percent: 1, credit_percent: 1 }),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    expect((await inventory.post(`/api/trade-ins/${d.id}/accept`)).statusCode).toBe(200);
    expect((await productRow(p.id))?.quantityOnHand).toBe(2);
  });
});
