import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantityAuditEntry } from "../../../contract/audit.js";
import type { OrderUpdate } from "../../../contract/events.js";
import type { Order } from "../../../contract/orders.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import type { CreatedToken } from "../../../contract/tokens.js";
import { orders, products } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn("manager");
});
afterAll(async () => {
  await t?.close();
});

const stockOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;
const externalId = () => newBarcode("EXT");

describe("placing an order", () => {
  it("applies every line in one transaction: stock, quantity audit with the order, events after the commit, the total", async () => {
    const [a, b] = [await manager.create({ quantity_on_hand: 5, price: 999 }), await manager.create({ quantity_on_hand: 2 })] as [
      Product,
      Product,
    ];
    const ext = externalId();
    const rec = recordEvents(t.app);
    const orderEvents: OrderUpdate[] = [];
    const onOrder = (e: OrderUpdate) => orderEvents.push(e);
    t.app.events.on("order_update", onOrder);
    const res = await manager.post("/api/orders", {
      channel: "ebay",
      external_id: ext,
      lines: [
        { barcode: a.barcode, quantity: 2, unit_price: 1500 },
        { product_id: b.id, quantity: 1, unit_price: 250 },
      ],
      note: "Ships Monday",
    });
    rec.stop();
    t.app.events.off("order_update", onOrder);
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json<{ order: Order }>();
    expect(order).toMatchObject({
      channel: "ebay",
      external_id: ext,
      status: "completed",
      total: 3250,
      note: "Ships Monday",
      cancelled_at: null,
      lines: [
        { product_id: a.id, barcode: a.barcode, product_name: a.product_name, quantity: 2, unit_price: 1500 },
        { product_id: b.id, barcode: b.barcode, product_name: b.product_name, quantity: 1, unit_price: 250 },
      ],
    });
    expect(await stockOf(a.id)).toBe(3);
    expect(await stockOf(b.id)).toBe(1);
    const audit = (await manager.get(`/api/audit/quantity/${a.id}`)).json<QuantityAuditEntry[]>();
    expect(audit[0]).toMatchObject({ quantity_change: -2, quantity_after: 3, notes: `Order ebay ${ext}`, order_id: order.id });
    expect(rec.events.map((e) => [e.type, e.data.id, e.data.quantity_change, e.data.quantity_on_hand])).toEqual([
      ["quantity_changed", a.id, -2, 3],
      ["quantity_changed", b.id, -1, 1],
    ]);
    expect(orderEvents.map((e) => [e.type, e.order.id])).toEqual([["order_created", order.id]]);
    expect((await manager.get(`/api/orders/${order.id}`)).json<{ order: Order }>().order).toEqual(order);
  });

  it("refuses the whole order, naming every failing line (409), and changes nothing", async () => {
    const a = await manager.create({ quantity_on_hand: 5 });
    const b = await manager.create({ quantity_on_hand: 1 });
    const c = await manager.create({ quantity_on_hand: 4 });
    expect((await manager.put(`/api/products/${c.id}/status`, { is_active: false })).statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    const ext = externalId();
    const res = await manager.post("/api/orders", {
      channel: "web",
      external_id: ext,
      lines: [
        { barcode: a.barcode, quantity: 2 },
        { barcode: b.barcode, quantity: 3 },
        { product_id: c.id, quantity: 1 },
        // Two lines of one product: together they ask for more than there is.
        { product_id: a.id, quantity: 4 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: "Order refused: 3 lines cannot be filled",
      lines: [
        { index: 1, barcode: b.barcode, requested: 3, available: 1 },
        { index: 2, barcode: c.barcode, requested: 1, available: 0 },
        { index: 3, barcode: a.barcode, requested: 4, available: 5 },
      ],
    });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(await t.app.db.select().from(orders).where(eq(orders.externalId, ext))).toEqual([]);
  });

  it("an unknown product is 404, with every failing line", async () => {
    const a = await manager.create({ quantity_on_hand: 1 });
    const res = await manager.post("/api/orders", {
      channel: "web",
      external_id: externalId(),
      lines: [
        { barcode: "NO-SUCH-CARD", quantity: 1 },
        { product_id: a.id, quantity: 2 },
        { product_id: 2_000_000_000, quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: "Order refused: 2 lines name an unknown product",
      lines: [
        { index: 0, barcode: "NO-SUCH-CARD", requested: 1, available: 0 },
        { index: 1, barcode: a.barcode, requested: 2, available: 1 },
        { index: 2, barcode: null, requested: 1, available: 0 },
      ],
    });
    expect(await stockOf(a.id)).toBe(1);
  });

  it("checks its input: lines, quantities, prices, channel", async () => {
    const p = await manager.create();
    for (const body of [
      { channel: "web", external_id: "1", lines: [] },
      { channel: "", external_id: "1", lines: [{ product_id: p.id, quantity: 1 }] },
      { channel: "web", external_id: "1", lines: [{ quantity: 1 }] },
      { channel: "web", external_id: "1", lines: [{ product_id: p.id, quantity: 0 }] },
      { channel: "web", external_id: "1", lines: [{ product_id: p.id, quantity: 1, unit_price: -5 }] },
    ]) {
      expect((await manager.post("/api/orders", body)).statusCode).toBe(400);
    }
  });
});

describe("the same order again", () => {
  it("same lines: 200 with the existing order, nothing applied twice; different lines: 422", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const body = { channel: "tcgplayer", external_id: externalId(), lines: [{ barcode: p.barcode, quantity: 3, unit_price: 100 }] };
    const first = await manager.post("/api/orders", body);
    expect(first.statusCode).toBe(201);
    // The same lines naming the product by id: the same order.
    const again = await manager.post("/api/orders", { ...body, lines: [{ product_id: p.id, quantity: 3, unit_price: 100 }] });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await stockOf(p.id)).toBe(7);
    const different = await manager.post("/api/orders", { ...body, lines: [{ barcode: p.barcode, quantity: 2, unit_price: 100 }] });
    expect(different.statusCode).toBe(422);
    expect(different.json().error).toBe("An order with this channel and external id exists with different lines");
    expect(await stockOf(p.id)).toBe(7);
    // The same external id on another channel is another order.
    expect((await manager.post("/api/orders", { ...body, channel: "shopify" })).statusCode).toBe(201);
    expect(await stockOf(p.id)).toBe(4);
  });

  it("10 duplicates sent at once apply once", async () => {
    const p = await manager.create({ quantity_on_hand: 20 });
    const body = { channel: "web", external_id: externalId(), lines: [{ product_id: p.id, quantity: 2 }] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => manager.post("/api/orders", body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json<{ order: Order }>().order.id)).size).toBe(1);
    expect(await stockOf(p.id)).toBe(18);
    const audit = (await manager.get(`/api/audit/quantity/${p.id}`)).json<QuantityAuditEntry[]>();
    expect(audit.filter((e) => e.notes === `Order web ${body.external_id}`)).toHaveLength(1);
  });

  it("100 racing orders on a stock of 30: exactly 30 applied, the rest refused, stock 0", async () => {
    const p = await manager.create({ quantity_on_hand: 30 });
    const other = await manager.create({ quantity_on_hand: 1000 });
    // Each order also takes one of another product, named first or last: locks are taken in id order.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const lines = [
          { product_id: p.id, quantity: 1 },
          { product_id: other.id, quantity: 1 },
        ];
        return manager.post("/api/orders", { channel: "stream", external_id: `race-${p.id}-${i}`, lines: i % 2 ? lines : lines.reverse() });
      }),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.filter((s) => s === 409)).toHaveLength(70);
    expect(await stockOf(p.id)).toBe(0);
    expect(await stockOf(other.id)).toBe(970);
    const placed = (await manager.get("/api/orders?channel=stream&limit=200"))
      .json<Order[]>()
      .filter((o) => o.external_id.startsWith(`race-${p.id}-`));
    expect(placed).toHaveLength(30);
  });
});

describe("cancelling an order", () => {
  it("puts every line's stock back (reason 'Order cancelled'); a second cancel is 409", async () => {
    const p = await manager.create({ quantity_on_hand: 6 });
    const { order } = (
      await manager.post("/api/orders", { channel: "web", external_id: externalId(), lines: [{ product_id: p.id, quantity: 4 }] })
    ).json<{ order: Order }>();
    expect(await stockOf(p.id)).toBe(2);
    const rec = recordEvents(t.app);
    const cancelled = await manager.post(`/api/orders/${order.id}/cancel`);
    rec.stop();
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<{ order: Order }>().order).toMatchObject({ id: order.id, status: "cancelled", cancelled_at: expect.any(String) });
    expect(await stockOf(p.id)).toBe(6);
    expect(rec.events.map((e) => [e.type, e.data.quantity_change, e.data.quantity_on_hand])).toEqual([["quantity_changed", 4, 6]]);
    const audit = (await manager.get(`/api/audit/quantity/${p.id}`)).json<QuantityAuditEntry[]>();
    expect(audit[0]).toMatchObject({ quantity_change: 4, notes: "Order cancelled", order_id: order.id });

    const second = await manager.post(`/api/orders/${order.id}/cancel`);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe("This order was already cancelled");
    expect(await stockOf(p.id)).toBe(6);
    expect((await manager.post("/api/orders/2000000000/cancel")).statusCode).toBe(404);
  });

  it("two cancels at once restock once", async () => {
    const p = await manager.create({ quantity_on_hand: 3 });
    const { order } = (
      await manager.post("/api/orders", { channel: "web", external_id: externalId(), lines: [{ product_id: p.id, quantity: 3 }] })
    ).json<{ order: Order }>();
    const answers = await Promise.all([manager.post(`/api/orders/${order.id}/cancel`), manager.post(`/api/orders/${order.id}/cancel`)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await stockOf(p.id)).toBe(3);
  });
});

describe("listing orders and who may do what", () => {
  it("lists newest first, filtered by channel, status and time", async () => {
    const p = await manager.create({ quantity_on_hand: 100 });
    const channel = `ch-${newBarcode("")}`.slice(0, 40);
    const place = async (ext: string) =>
      (await manager.post("/api/orders", { channel, external_id: ext, lines: [{ product_id: p.id, quantity: 1 }] })).json<{
        order: Order;
      }>().order;
    const one = await place("1");
    const two = await place("2");
    await manager.post(`/api/orders/${one.id}/cancel`);
    const list = (q: string) => manager.get(`/api/orders?channel=${channel}${q}`).then((r) => r.json<Order[]>().map((o) => o.id));
    expect(await list("")).toEqual([two.id, one.id]);
    expect(await list("&status=cancelled")).toEqual([one.id]);
    expect(await list("&status=completed")).toEqual([two.id]);
    expect(await list("&limit=1&offset=1")).toEqual([one.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await list(`&from=${today}&to=${today}`)).toEqual([two.id, one.id]);
    expect(await list("&to=2000-01-01")).toEqual([]);
    expect(await list(`&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect((await manager.get("/api/orders?from=yesterday")).statusCode).toBe(400);
  });

  it("users who may manage products place orders, a streamer may not (403, nothing changes); managers and super_admin list and cancel them", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const streamer = await signIn("streamer");
    const before = await snapshot(t.app.db);
    // Not even in another channel's name: the real integration's order would then be refused.
    for (const channel of ["counter", "shopify"]) {
      const ext = externalId();
      const refused = await streamer.post("/api/orders", { channel, external_id: ext, lines: [{ product_id: p.id, quantity: 1 }] });
      expect(refused.statusCode).toBe(403);
      expect(await t.app.db.select().from(orders).where(eq(orders.externalId, ext))).toEqual([]);
    }
    expect(await snapshot(t.app.db)).toEqual(before);

    const inventory = await signIn("inventory");
    const placed = await inventory.post("/api/orders", {
      channel: "counter",
      external_id: externalId(),
      lines: [{ product_id: p.id, quantity: 1 }],
    });
    expect(placed.statusCode).toBe(201);
    expect(await stockOf(p.id)).toBe(9);
    const id = placed.json<{ order: Order }>().order.id;
    for (const api of [streamer, inventory]) {
      expect((await api.get("/api/orders")).statusCode).toBe(403);
      expect((await api.get(`/api/orders/${id}`)).statusCode).toBe(403);
      expect((await api.post(`/api/orders/${id}/cancel`)).statusCode).toBe(403);
    }
    const admin = await signIn("super_admin");
    expect((await admin.get(`/api/orders/${id}`)).statusCode).toBe(200);
    expect((await caller(t.app, "").get("/api/orders")).statusCode).toBe(401);
  });

  it("an order placed with a token names the token: created_by and the audit", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const { secret, token } = (
      await manager.post("/api/tokens", { name: `Shopify ${newBarcode("")}`, scopes: ["orders:write"] })
    ).json<CreatedToken>();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      headers: { authorization: `Bearer ${secret}` },
      payload: { channel: "shopify", external_id: externalId(), lines: [{ product_id: p.id, quantity: 2 }] },
    });
    expect(res.statusCode).toBe(201);
    const { order } = res.json<{ order: Order }>();
    expect(order.created_by).toBe(`token:${token.name}`);
    const audit = (await manager.get(`/api/audit/quantity/${p.id}`)).json<QuantityAuditEntry[]>();
    expect(audit[0]).toMatchObject({ user_name: `token:${token.name}`, order_id: order.id });
    // orders:write lists and cancels too.
    const cancel = await t.app.inject({
      method: "POST",
      url: `/api/orders/${order.id}/cancel`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(cancel.statusCode).toBe(200);
  });
});

describe("a token limited to channels", () => {
  const withToken = (secret: string, method: "GET" | "POST", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${secret}` }, ...(payload ? { payload } : {}) });

  it("is made with orders:write only, and listed with its channels", async () => {
    const name = () => `Channels ${newBarcode("")}`;
    const made = await manager.post("/api/tokens", { name: name(), scopes: ["orders:write"], channels: ["ebay", "web", "ebay"] });
    expect(made.statusCode, made.body).toBe(201);
    const { token } = made.json<CreatedToken>();
    expect(token.channels).toEqual(["ebay", "web"]);
    expect((await manager.get("/api/tokens")).json<CreatedToken["token"][]>().find((x) => x.id === token.id)?.channels).toEqual([
      "ebay",
      "web",
    ]);
    const unlimited = await manager.post("/api/tokens", { name: name(), scopes: ["orders:write"] });
    expect(unlimited.json<CreatedToken>().token.channels).toBeNull();
    for (const body of [
      { name: name(), scopes: ["products:read"], channels: ["ebay"] },
      { name: name(), scopes: ["orders:write"], channels: [] },
      { name: name(), scopes: ["orders:write"], channels: [""] },
      { name: name(), scopes: ["orders:write"], channels: ["x".repeat(51)] },
      { name: name(), scopes: ["orders:write"], channels: "ebay" },
    ]) {
      const res = await manager.post("/api/tokens", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const wrong = await manager.post("/api/tokens", { name: name(), scopes: ["products:read"], channels: ["ebay"] });
    expect(wrong.body).toContain("Channels limit the orders:write scope");
  });

  it("places, cancels and reads orders only in its channels (403 otherwise, nothing changes) and lists only theirs", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const { secret } = (
      await manager.post("/api/tokens", { name: `eBay only ${newBarcode("")}`, scopes: ["orders:write"], channels: ["ebay"] })
    ).json<CreatedToken>();
    const line = [{ product_id: p.id, quantity: 1 }];

    // Another channel: refused before anything is written.
    const before = await snapshot(t.app.db);
    const elsewhere = await withToken(secret, "POST", "/api/orders", { channel: "shopify", external_id: externalId(), lines: line });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error).toBe("This API token places, cancels and reads orders only in the channel ebay");
    expect(await snapshot(t.app.db)).toEqual(before);

    // Its own channel: placed.
    const own = await withToken(secret, "POST", "/api/orders", { channel: "ebay", external_id: externalId(), lines: line });
    expect(own.statusCode).toBe(201);
    const mine = own.json<{ order: Order }>().order;
    expect(await stockOf(p.id)).toBe(9);

    // Another channel's order (placed by a manager): not cancelled, not read, not listed; not repeated either.
    const theirs = (await manager.post("/api/orders", { channel: "shopify", external_id: externalId(), lines: line })).json<{
      order: Order;
    }>().order;
    expect(await stockOf(p.id)).toBe(8);
    const cancel = await withToken(secret, "POST", `/api/orders/${theirs.id}/cancel`);
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json().error).toBe("This API token places, cancels and reads orders only in the channel ebay");
    expect((await manager.get(`/api/orders/${theirs.id}`)).json<{ order: Order }>().order.status).toBe("completed");
    expect(await stockOf(p.id)).toBe(8);
    expect((await withToken(secret, "GET", `/api/orders/${theirs.id}`)).statusCode).toBe(403);
    const replay = await withToken(secret, "POST", "/api/orders", { channel: "shopify", external_id: theirs.external_id, lines: line });
    expect(replay.statusCode).toBe(403);
    const listed = (await withToken(secret, "GET", "/api/orders?limit=200")).json<Order[]>();
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed.map((o) => o.channel))).toEqual(new Set(["ebay"]));
    expect(listed.map((o) => o.id)).toContain(mine.id);
    expect((await withToken(secret, "GET", "/api/orders?channel=shopify")).json<Order[]>()).toEqual([]);
    expect((await withToken(secret, "GET", `/api/orders/${mine.id}`)).statusCode).toBe(200);
    expect((await withToken(secret, "POST", "/api/orders/2000000000/cancel")).statusCode).toBe(404);

    // Its own order: cancelled.
    const cancelled = await withToken(secret, "POST", `/api/orders/${mine.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(await stockOf(p.id)).toBe(9);
  });
});
