import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Customer, TradeIn, TradeInBody } from "../../../contract/counter.js";
import type { BoughtInMarginReport, BuysReport, CreditReport } from "../../../contract/counter-reports.js";
import type { Order } from "../../../contract/orders.js";
import type { Product } from "../../../contract/products.js";
import { quantityAudit, tradeIns } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

// The counter's reports (issue 40) in a shop whose days are New York's.
const TZ = "America/New_York";
let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

/** Today in the shop's zone, and `n` days from it (YYYY-MM-DD). */
const shopDay = (n = 0) => new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(new Date(Date.now() + n * 86_400_000));

let ruby: Product;
let opal: Product;
let plain: Product;
let ada: Customer;
let bea: Customer;

async function acceptTradeIn(body: TradeInBody, acceptedAt: string): Promise<TradeIn> {
  const draft = await manager.post("/api/trade-ins", body);
  expect(draft.statusCode, draft.body).toBe(201);
  const id = draft.json<{ trade_in: TradeIn }>().trade_in.id;
  const accepted = await manager.post(`/api/trade-ins/${id}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
  // When it was accepted, moved to the day the test needs (the credit entry keeps its own time: now).
  await t.database.db
    .update(tradeIns)
    .set({ acceptedAt: new Date(acceptedAt) })
    .where(eq(tradeIns.id, id));
  return accepted.json<{ trade_in: TradeIn }>().trade_in;
}

async function order(body: Record<string, unknown>): Promise<Order> {
  const res = await manager.post("/api/orders", { channel: "counter", external_id: newBarcode("S"), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: Order }>().order;
}

beforeAll(async () => {
  t = await createTestApp({ TIMEZONE: TZ });
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
  ruby = await manager.create({ product_name: "Ruby Dragon", quantity_on_hand: 0, price: 900 });
  opal = await manager.create({ product_name: "Opal Knight", quantity_on_hand: 0, price: 500 });
  plain = await manager.create({ product_name: "Shop Sleeves", quantity_on_hand: 10, price: 300 });
  ada = (await manager.post("/api/customers", { name: "Ada Park" })).json<{ customer: Customer }>().customer;
  bea = (await manager.post("/api/customers", { name: "Bea Stone" })).json<{ customer: Customer }>().customer;

  // Sunday 1 March 2026, 23:30 in New York (Monday 04:30 UTC): 2 Ruby Dragons for 3.00 each in cash.
  await acceptTradeIn(
    { lines: [{ product_id: ruby.id, quantity: 2, offer_cash_cents: 300, offer_credit_cents: 400 }], payout: "cash" },
    "2026-03-02T04:30:00Z",
  );
  // Tuesday 10 March: a Ruby Dragon for 6.00 and an Opal Knight for 2.00, in Ada's store credit; a struck line not bought.
  await acceptTradeIn(
    {
      customer_id: ada.id,
      lines: [
        { product_id: ruby.id, quantity: 1, offer_cash_cents: 500, offer_credit_cents: 600 },
        { product_id: opal.id, quantity: 1, offer_cash_cents: 150, offer_credit_cents: 200 },
        { product_id: plain.id, quantity: 5, offer_cash_cents: 10, offer_credit_cents: 10, struck: true },
      ],
      payout: "credit",
    },
    "2026-03-10T15:00:00Z",
  );
  // Sales: 2 Ruby Dragons at 9.00 paid partly with Ada's credit; Shop Sleeves (never bought in); a cancelled Ruby Dragon.
  await order({
    lines: [{ product_id: ruby.id, quantity: 2, unit_price: 900 }],
    customer_id: ada.id,
    payments: [
      { method: "credit", amount: 500 },
      { method: "card", amount: 1300 },
    ],
  });
  await order({ lines: [{ product_id: plain.id, quantity: 1, unit_price: 300 }] });
  const cancelled = await order({ lines: [{ product_id: ruby.id, quantity: 1, unit_price: 2000 }] });
  expect((await manager.post(`/api/orders/${cancelled.id}/cancel`)).statusCode).toBe(200);
  // A streamer's sale tap of the Opal Knight at its price.
  await t.database.db.insert(quantityAudit).values({
    productId: opal.id,
    productName: opal.product_name,
    barcode: opal.barcode,
    quantityChange: -1,
    quantityBefore: 1,
    quantityAfter: 0,
    transactionType: "adjustment",
    notes: "Streamer adjustment",
    userName: "someone",
    unitPrice: 500,
  });
  // Bea: 2.50 by a manager's adjustment.
  expect((await manager.post(`/api/customers/${bea.id}/credit`, { amount: 250, reason: "Goodwill" })).statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe("buys over time", () => {
  it("sums accepted trade-ins by the week of their acceptance in the shop's zone: count, units not struck, cash and credit", async () => {
    const res = await manager.get("/api/reports/buys?from=2026-03-01&to=2026-03-31&by=week");
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<BuysReport>();
    expect(report.timezone).toBe(TZ);
    const weeks = report.buckets.filter((b) => b.trade_ins > 0);
    // 23:30 on Sunday 1 March in New York is the week of Monday 23 February, not of Monday 2 March (UTC's day).
    expect(weeks).toEqual([
      { start: "2026-02-23", trade_ins: 1, units: 2, cash: 600, credit: 0 },
      { start: "2026-03-09", trade_ins: 1, units: 2, cash: 0, credit: 800 },
    ]);
    expect(report.buckets.map((b) => b.start)).toEqual([
      "2026-02-23",
      "2026-03-02",
      "2026-03-09",
      "2026-03-16",
      "2026-03-23",
      "2026-03-30",
    ]);
    expect(report.totals).toEqual({ trade_ins: 2, units: 4, cash: 600, credit: 800 });

    const days = (await manager.get("/api/reports/buys?from=2026-03-02&to=2026-03-10&by=day")).json<BuysReport>();
    expect(days.buckets).toHaveLength(9);
    expect(days.totals).toEqual({ trade_ins: 1, units: 2, cash: 0, credit: 800 });
    const months = (await manager.get("/api/reports/buys?from=2026-01-01&to=2026-12-31&by=month")).json<BuysReport>();
    expect(months.buckets.find((b) => b.start === "2026-03-01")).toMatchObject({ trade_ins: 2, cash: 600, credit: 800 });
  });
});

describe("margin on cards bought in", () => {
  it("sets each bought-in product's sales against the average paid per unit; other products and cancelled orders count nothing", async () => {
    const res = await manager.get(`/api/reports/bought-in-margin?from=${shopDay(-1)}&to=${shopDay(1)}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<BoughtInMarginReport>();
    expect(report.rule).toContain("accepted trade-in");
    // Ruby Dragon: paid 3.00, 3.00 and 6.00, 4.00 a unit on average; 2 sold at 9.00.
    // Opal Knight: paid 2.00; 1 sold by a tap at 5.00.
    expect(report.products).toEqual([
      {
        product_id: ruby.id,
        barcode: ruby.barcode,
        product_name: "Ruby Dragon",
        units: 2,
        revenue: 1800,
        cost: 800,
        margin: 1000,
        paid_per_unit: 400,
      },
      {
        product_id: opal.id,
        barcode: opal.barcode,
        product_name: "Opal Knight",
        units: 1,
        revenue: 500,
        cost: 200,
        margin: 300,
        paid_per_unit: 200,
      },
    ]);
    expect(report.totals).toEqual({ units: 3, revenue: 2300, cost: 1000, margin: 1300 });
    const one = (
      await manager.get(`/api/reports/bought-in-margin?from=${shopDay(-1)}&to=${shopDay(1)}&limit=1`)
    ).json<BoughtInMarginReport>();
    expect(one.products.map((p) => p.product_id)).toEqual([ruby.id]);
    expect(one.totals.margin).toBe(1300);
    const before = (await manager.get("/api/reports/bought-in-margin?from=2026-01-01&to=2026-01-31")).json<BoughtInMarginReport>();
    expect(before.products).toEqual([]);
    expect(before.totals).toEqual({ units: 0, revenue: 0, cost: 0, margin: 0 });
  });

  it("shows inventory users the revenue without the cost or margin", async () => {
    const report = (await inventory.get(`/api/reports/bought-in-margin?from=${shopDay(-1)}&to=${shopDay(1)}`)).json<BoughtInMarginReport>();
    expect(report.products.map((p) => [p.product_name, p.revenue, p.cost, p.margin, p.paid_per_unit])).toEqual([
      ["Ruby Dragon", 1800, null, null, null],
      ["Opal Knight", 500, null, null, null],
    ]);
    expect(report.totals).toEqual({ units: 3, revenue: 2300, cost: null, margin: null });
  });
});

describe("store credit outstanding", () => {
  it("is the sum of the balances, which the ledger's sum equals, with the range's entries by kind", async () => {
    const res = await manager.get(`/api/reports/credit?from=${shopDay(-1)}&to=${shopDay(1)}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<CreditReport>();
    // Ada: 8.00 from the trade-in less 5.00 spent; Bea: 2.50.
    expect(report).toMatchObject({ outstanding: 550, customers_with_balance: 2 });
    expect(report.movements).toEqual({ trade_in: 800, order: -500, adjustment: 250, expiry: 0 });
    const ledger = await t.database.db.execute(sql`select coalesce(sum(amount), 0)::bigint as total from credit_entries`);
    expect(Number(rowsOf<{ total: unknown }>(ledger)[0]?.total)).toBe(report.outstanding);
    const old = (await manager.get("/api/reports/credit?from=2026-01-01&to=2026-01-31")).json<CreditReport>();
    expect(old).toMatchObject({ outstanding: 550, movements: { trade_in: 0, order: 0, adjustment: 0, expiry: 0 } });
  });
});

describe("who reads them", () => {
  it("opens to a reports:read token (its maker's view: a manager's, with the cost), not to an audit:read one", async () => {
    const secretFor = async (name: string, scopes: string[]) => {
      const res = await manager.post("/api/tokens", { name, scopes });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ secret: string }>().secret;
    };
    const reader = await secretFor("Counter reports reader", ["reports:read"]);
    const auditor = await secretFor("Counter audit reader", ["audit:read"]);
    const get = (secret: string, url: string) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${secret}` } });
    const range = `from=${shopDay(-1)}&to=${shopDay(1)}`;
    const margin = await get(reader, `/api/reports/bought-in-margin?${range}`);
    expect(margin.statusCode, margin.body).toBe(200);
    expect(margin.json<BoughtInMarginReport>().totals.margin).toBe(1300);
    expect((await get(reader, `/api/reports/buys?${range}`)).statusCode).toBe(200);
    expect((await get(reader, `/api/reports/credit?${range}`)).statusCode).toBe(200);
    expect((await get(auditor, `/api/reports/credit?${range}`)).statusCode).toBe(403);
  });

  it("refuses a streamer (403) and a bad range (400)", async () => {
    for (const path of [
      "/api/reports/buys?from=2026-03-01&to=2026-03-31",
      "/api/reports/bought-in-margin?from=2026-03-01&to=2026-03-31",
      "/api/reports/credit?from=2026-03-01&to=2026-03-31",
    ]) {
      expect((await streamer.get(path)).statusCode, path).toBe(403);
      expect((await manager.get(path.replace("2026-03-31", "2026-02-01"))).statusCode, path).toBe(400);
    }
  });
});
