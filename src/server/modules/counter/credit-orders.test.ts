import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreditLedger, Customer, CustomerDetail } from "../../../contract/counter.js";
import type { OrderUpdate } from "../../../contract/events.js";
import type { Order } from "../../../contract/orders.js";
import { orders, products } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
});
afterAll(async () => {
  await t?.close();
});

async function customerWith(credit: number): Promise<Customer> {
  const res = await manager.post("/api/customers", { name: `Buyer ${newBarcode("B")}` });
  const customer = res.json<{ customer: Customer }>().customer;
  if (credit > 0)
    expect((await manager.post(`/api/customers/${customer.id}/credit`, { amount: credit, reason: "Opening" })).statusCode).toBe(201);
  return customer;
}

const stockOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;
const balanceOf = async (id: number) => (await manager.get(`/api/customers/${id}/credit`)).json<CreditLedger>().balance;

describe("an order paid with store credit", () => {
  it("takes the credit part off the balance with the stock, in one transaction; events carry no customer", async () => {
    const customer = await customerWith(1000);
    const p = await manager.create({ quantity_on_hand: 5 });
    const ext = newBarcode("CS");
    const seen: OrderUpdate[] = [];
    const onOrder = (e: OrderUpdate) => seen.push(e);
    t.app.events.on("order_update", onOrder);
    const res = await manager.post("/api/orders", {
      channel: "counter",
      external_id: ext,
      lines: [{ product_id: p.id, quantity: 3, unit_price: 500 }],
      customer_id: customer.id,
      payments: [
        { method: "credit", amount: 1000 },
        { method: "cash", amount: 500 },
      ],
    });
    t.app.events.off("order_update", onOrder);
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json<{ order: Order }>();
    expect(order).toMatchObject({
      total: 1500,
      customer_id: customer.id,
      payments: [
        { method: "credit", amount: 1000 },
        { method: "cash", amount: 500 },
      ],
    });
    expect(await stockOf(p.id)).toBe(2);
    const ledger = (await manager.get(`/api/customers/${customer.id}/credit`)).json<CreditLedger>();
    expect(ledger.balance).toBe(0);
    expect(ledger.entries[0]).toMatchObject({ amount: -1000, kind: "order", order_id: order.id, reason: `Order counter ${ext}` });
    expect((await manager.get(`/api/orders/${order.id}`)).json<{ order: Order }>().order).toEqual(order);
    expect((await manager.get(`/api/customers/${customer.id}`)).json<CustomerDetail>().orders.map((o) => o.id)).toEqual([order.id]);
    expect(seen.map((e) => [e.order.id, "customer_id" in e.order, "payments" in e.order])).toEqual([[order.id, false, false]]);

    // Cancelled: the stock and the credit go back.
    expect((await manager.post(`/api/orders/${order.id}/cancel`)).statusCode).toBe(200);
    expect(await stockOf(p.id)).toBe(5);
    expect(await balanceOf(customer.id)).toBe(1000);
  });

  it("is refused whole (409 with the balance) when the credit is short: no stock moves, no order is kept", async () => {
    const customer = await customerWith(400);
    const p = await manager.create({ quantity_on_hand: 5 });
    const ext = newBarcode("CS");
    const before = await snapshot(t.app.db);
    const res = await manager.post("/api/orders", {
      channel: "counter",
      external_id: ext,
      lines: [{ product_id: p.id, quantity: 1, unit_price: 500 }],
      customer_id: customer.id,
      payments: [{ method: "credit", amount: 500 }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string; balance: number }>()).toMatchObject({ balance: 400 });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(await t.app.db.select().from(orders).where(eq(orders.externalId, ext))).toEqual([]);
    expect(await balanceOf(customer.id)).toBe(400);
  });

  it("needs payments that add up to the total, and a customer for credit (400)", async () => {
    const customer = await customerWith(1000);
    const p = await manager.create({ quantity_on_hand: 5 });
    const line = [{ product_id: p.id, quantity: 1, unit_price: 500 }];
    const short = await manager.post("/api/orders", {
      channel: "counter",
      external_id: newBarcode("CS"),
      lines: line,
      customer_id: customer.id,
      payments: [{ method: "credit", amount: 400 }],
    });
    expect(short.statusCode).toBe(400);
    const nobody = await manager.post("/api/orders", {
      channel: "counter",
      external_id: newBarcode("CS"),
      lines: line,
      payments: [{ method: "credit", amount: 500 }],
    });
    expect(nobody.statusCode).toBe(400);
    expect(await stockOf(p.id)).toBe(5);
    expect(await balanceOf(customer.id)).toBe(1000);
  });

  it("5 orders at once each spending 400 of a balance of 1000: 2 apply, with their stock; the balance never goes below 0", async () => {
    const customer = await customerWith(1000);
    const p = await manager.create({ quantity_on_hand: 10 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        manager.post("/api/orders", {
          channel: "counter",
          external_id: newBarcode("CS"),
          lines: [{ product_id: p.id, quantity: 1, unit_price: 400 }],
          customer_id: customer.id,
          payments: [{ method: "credit", amount: 400 }],
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(await stockOf(p.id)).toBe(8);
    expect(await balanceOf(customer.id)).toBe(200);
  });
});
