import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantityAuditEntry } from "../../../contract/audit.js";
import type { CreditLedger, Customer, TradeIn, TradeInBody } from "../../../contract/counter.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { creditEntries, marketPrices, priceFeeds, products, tradeIns } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let feedId: number;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn("manager");
  inventory = await signIn("inventory");
  const [feed] = await t.app.db.insert(priceFeeds).values({ name: "Reversal test feed", format: "csv" }).returning();
  feedId = (feed as { id: number }).id;
  expect((await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70 })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

async function priced(market: number, overrides: Record<string, unknown> = {}): Promise<Product> {
  const product = await manager.create({ quantity_on_hand: 0, ...overrides });
  await t.app.db
    .insert(marketPrices)
    .values({ productId: product.id, feedId, day: today(), checkedOn: today(), finish: "normal", currency: "USD", market });
  return product;
}

async function newCustomer(): Promise<Customer> {
  const res = await inventory.post("/api/customers", { name: `Trader ${newBarcode("C")}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ customer: Customer }>().customer;
}

/** A trade-in made and accepted. */
async function accepted(body: TradeInBody): Promise<TradeIn> {
  const made = await inventory.post("/api/trade-ins", body);
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json<{ trade_in: TradeIn }>().trade_in.id;
  const res = await inventory.post(`/api/trade-ins/${id}/accept`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ trade_in: TradeIn }>().trade_in;
}

const stock = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;
const ledger = async (customer: Customer) => (await inventory.get(`/api/customers/${customer.id}/credit`)).json<CreditLedger>();

describe("reversing an accepted trade-in", () => {
  it("takes its stock back out and its credit back by new entries, marks it reversed with who and why; managers only", async () => {
    const customer = await newCustomer();
    const a = await priced(1000, { quantity_on_hand: 5 });
    const b = await priced(500);
    const d = await accepted({
      customer_id: customer.id,
      payout: "credit",
      lines: [
        { product_id: a.id, quantity: 2 },
        { product_id: b.id, quantity: 1 },
      ],
    });
    expect(d.credit_cents).toBe(2 * 700 + 350);
    expect(await stock(a.id)).toBe(7);

    expect((await inventory.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Cards were fakes" })).statusCode).toBe(403);
    expect((await manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "  " })).statusCode).toBe(400);
    const res = await manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Cards were fakes" });
    expect(res.statusCode, res.body).toBe(200);
    const reversed = res.json<{ trade_in: TradeIn }>().trade_in;
    expect(reversed).toMatchObject({ status: "reversed", reversal_reason: "Cards were fakes", credit_cents: 1750 });
    expect(reversed.reversed_by).not.toBeNull();
    expect(reversed.reversed_at).not.toBeNull();

    expect(await stock(a.id)).toBe(5);
    expect(await stock(b.id)).toBe(0);
    const audit = (await manager.get(`/api/audit/quantity/${a.id}`)).json<QuantityAuditEntry[]>();
    expect(audit[0]).toMatchObject({ quantity_change: -2, quantity_after: 5, notes: `Trade-in #${d.number} reversed` });
    const credit = await ledger(customer);
    expect(credit.balance).toBe(0);
    expect(credit.entries.map((e) => [e.amount, e.kind, e.trade_in_id, e.reason])).toEqual([
      [-1750, "trade_in", d.id, `Trade-in #${d.number} reversed: Cards were fakes`],
      [1750, "trade_in", d.id, `Trade-in #${d.number}`],
    ]);
    // Reversed once: a second reversal answers 409 and changes nothing.
    const again = await manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Again" });
    expect(again.statusCode).toBe(409);
    expect((await ledger(customer)).entries).toHaveLength(2);
    expect((await manager.post("/api/trade-ins/999999/reverse", { reason: "No such" })).statusCode).toBe(404);
  });

  it("answers 409 and applies nothing when the balance no longer covers the credit (part of it spent)", async () => {
    const customer = await newCustomer();
    const p = await priced(1000);
    const d = await accepted({ customer_id: customer.id, payout: "credit", lines: [{ product_id: p.id, quantity: 1 }] });
    const spent = await manager.post(`/api/customers/${customer.id}/credit`, { amount: -300, reason: "Spent in the shop" });
    expect(spent.statusCode, spent.body).toBe(201);
    const before = await snapshot(t.app.db);
    const res = await manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Changed their mind" });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string }>().error).toContain("no longer covers");
    expect(await snapshot(t.app.db)).toEqual(before);
    expect((await t.app.db.select().from(tradeIns).where(eq(tradeIns.id, d.id)))[0]?.status).toBe("accepted");
    expect((await ledger(customer)).balance).toBe(400);
  });

  it("answers 409 and applies nothing when a product no longer holds the units; a draft is not reversed", async () => {
    const p = await priced(1000);
    const d = await accepted({ payout: "cash", lines: [{ product_id: p.id, quantity: 2 }] });
    const sold = await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: -1, reason: "Sold" });
    expect(sold.statusCode, sold.body).toBe(200);
    const res = await manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Mistake" });
    expect(res.statusCode).toBe(409);
    expect(await stock(p.id)).toBe(1);
    const draft = await inventory.post("/api/trade-ins", { lines: [{ product_id: p.id, quantity: 1 }] });
    const id = draft.json<{ trade_in: TradeIn }>().trade_in.id;
    expect((await manager.post(`/api/trade-ins/${id}/reverse`, { reason: "Mistake" })).statusCode).toBe(409);
  });

  it("two managers reversing it at once apply it once: one 200, one 409", async () => {
    const customer = await newCustomer();
    const p = await priced(1000);
    const d = await accepted({ customer_id: customer.id, payout: "credit", lines: [{ product_id: p.id, quantity: 3 }] });
    const other = await signIn("manager");
    const answers = await Promise.all([
      manager.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Twice" }),
      other.post(`/api/trade-ins/${d.id}/reverse`, { reason: "Twice" }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await stock(p.id)).toBe(0);
    const credit = await ledger(customer);
    expect(credit.balance).toBe(0);
    expect(await t.app.db.select().from(creditEntries).where(eq(creditEntries.customerId, customer.id))).toHaveLength(2);
  });
});
