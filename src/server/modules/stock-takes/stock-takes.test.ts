import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantityAuditEntry } from "../../../contract/audit.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import type { Location, ScanAnswer, ScansAnswer, StockTake, StockTakeReview, StockTakeUpdate } from "../../../contract/stock-takes.js";
import { products, quantityAudit, stockTakeScans, webhookDeliveries } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents } from "../../test/product-calls.js";
import { reviewOf, scanOnce } from "../../test/stock-takes.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

type Api = ReturnType<typeof caller>;
let t: TestApp;
let manager: Api;
let managerCookie: string;
let inventory: Api;
let streamer: Api;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

beforeAll(async () => {
  t = await createTestApp();
  managerCookie = (await signedIn(t.app, "manager")).cookie;
  manager = caller(t.app, managerCookie);
  inventory = await signIn("inventory");
  streamer = await signIn("streamer");
});
afterAll(async () => {
  await t?.close();
});

const stockOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;

async function newLocation(api: Api = inventory): Promise<Location> {
  const res = await api.post("/api/locations", { name: newBarcode("Case ") });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Location>();
}

async function start(api: Api, scope: { location_ids: number[] } | { whole_shop: true }): Promise<StockTake> {
  const res = await api.post("/api/stock-takes", { scope });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ stock_take: StockTake }>().stock_take;
}

const scan = scanOnce;
const review = (session: number) => reviewOf(inventory, session);

const lineOf = (r: StockTakeReview, productId: number) => r.lines.find((l) => l.product_id === productId);

async function tap(product: Product, change: number) {
  const res = await streamer.put(`/api/products/${product.id}/quantity`, { quantity_change: change, reason: "Sold" });
  expect(res.statusCode, res.body).toBe(200);
}

describe("locations", () => {
  it("are a list the shop keeps (a name once, in any case), and can be made from the products' location texts", async () => {
    const loc = await newLocation();
    expect((await inventory.post("/api/locations", { name: loc.name.toUpperCase() })).statusCode).toBe(409);
    const text = newBarcode("Binder wall ");
    const product = await manager.create({ location: `  ${text} ` });
    await manager.create({ location: text.toLowerCase() });
    const res = await inventory.post("/api/locations/from-products", {});
    expect(res.statusCode, res.body).toBe(200);
    const { created, locations } = res.json<{ created: Location[]; locations: Location[] }>();
    expect(created.filter((l) => l.name.toLowerCase() === text.toLowerCase())).toHaveLength(1);
    expect(locations.map((l) => l.name)).toContain(loc.name);
    // The products keep their text.
    expect((await t.app.db.select().from(products).where(eq(products.id, product.id)))[0]?.location).toBe(product.location);
    // Again: nothing new for the same texts.
    const again = (await inventory.post("/api/locations/from-products", {})).json<{ created: Location[] }>().created;
    expect(again.filter((l) => l.name.toLowerCase() === text.toLowerCase())).toEqual([]);
    const list = (await inventory.get("/api/locations")).json<Location[]>();
    expect(list.some((l) => l.id === loc.id)).toBe(true);
  });
});

describe("a count while the shop sells", () => {
  it("moves the expected figure with the taps and orders after the first scan, and approves the real difference through the stock path", async () => {
    const loc = await newLocation();
    const product = await manager.create({ quantity_on_hand: 11, location: loc.name, cost: 200, price: 500 });
    await tap(product, -1); // before the session: stock 10, nothing to do with the count
    const session = await start(inventory, { location_ids: [loc.id] });

    const first = await scan(inventory, session.id, product.barcode, { location_id: loc.id });
    expect(first).toMatchObject({ result: "found", product_id: product.id, count: 0, counted: 1, replayed: false });
    // Sales while counting: a tap and an order, after the product's first scan.
    await tap(product, -1);
    const order = await manager.post("/api/orders", {
      channel: "web",
      external_id: newBarcode("EXT"),
      lines: [{ product_id: product.id, quantity: 2 }],
    });
    expect(order.statusCode, order.body).toBe(201);
    const more = await scan(inventory, session.id, product.barcode, { location_id: loc.id, quantity: 5 });
    expect(more).toMatchObject({ result: "already_counted", count: 1, counted: 6 });

    const before = lineOf(await review(session.id), product.id);
    // 10 at the first scan, -1 tapped, -2 ordered: 7 expected; 6 counted, one is really missing.
    expect(before).toMatchObject({ expected: 7, counted: 6, difference: -1, value_at_cost: -200, value_at_price: -500, status: "counted" });
    expect(await stockOf(product.id)).toBe(7);

    expect((await inventory.post(`/api/stock-takes/${session.id}/approve`, {})).statusCode).toBe(403);
    const rec = recordEvents(t.app);
    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
    rec.stop();
    expect(approved.statusCode, approved.body).toBe(200);
    const after = approved.json<StockTakeReview>();
    expect(after.stock_take).toMatchObject({ status: "approved", approved_by: expect.any(String) });
    expect(after.stock_take.finished_at).not.toBeNull();
    expect(lineOf(after, product.id)).toMatchObject({ expected: 7, counted: 6, difference: -1, applied: -1 });
    expect(await stockOf(product.id)).toBe(6);

    const audit = await t.app.db.select().from(quantityAudit).where(eq(quantityAudit.productId, product.id)).orderBy(asc(quantityAudit.id));
    const last = audit.at(-1);
    expect(last).toMatchObject({
      quantityChange: -1,
      quantityBefore: 7,
      quantityAfter: 6,
      notes: `Stock take #${session.number}`,
      stockTakeId: session.id,
    });
    expect(audit.filter((a) => a.stockTakeId !== null)).toHaveLength(1);
    expect(rec.events.some((e) => e.type === "quantity_changed" && e.data.id === product.id && e.data.quantity_change === -1)).toBe(true);

    // The review keeps what was approved, however the stock moves later.
    await tap(product, -1);
    expect(lineOf(await review(session.id), product.id)).toMatchObject({ expected: 7, counted: 6, difference: -1, applied: -1 });
    expect(
      (
        await inventory.post(`/api/stock-takes/${session.id}/scans`, {
          scans: [{ client_scan_id: randomUUID(), barcode: product.barcode }],
        })
      ).statusCode,
    ).toBe(409);
  });

  it("moves the expected figure with an edit of the stock too (any writer of the quantity audit)", async () => {
    const product = await manager.create({ quantity_on_hand: 10 });
    const session = await start(inventory, { whole_shop: true });
    await scan(inventory, session.id, product.barcode, { quantity: 4 });
    const edit = await manager.put(`/api/products/${product.id}`, { quantity_on_hand: 12 });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(lineOf(await review(session.id), product.id)).toMatchObject({ expected: 12, counted: 4, difference: -8 });
  });

  it("lists missing, misplaced and unknown items, per location with sums at cost and at price", async () => {
    const [a, b] = [await newLocation(), await newLocation()];
    const here = await manager.create({ quantity_on_hand: 2, location: a.name, cost: 100, price: 300 });
    const missing = await manager.create({ quantity_on_hand: 3, location: a.name.toLowerCase(), cost: 50, price: 90 });
    const elsewhere = await manager.create({ quantity_on_hand: 4, location: b.name, price: 1000 });
    const unknownBarcode = newBarcode("NOPE");
    const session = await start(inventory, { location_ids: [a.id] });

    expect(await scan(inventory, session.id, here.barcode, { location_id: a.id, quantity: 2 })).toMatchObject({
      result: "found",
      counted: 2,
    });
    expect(await scan(inventory, session.id, elsewhere.barcode, { location_id: a.id })).toMatchObject({
      result: "new_to_location",
      counted: 1,
    });
    expect(await scan(inventory, session.id, unknownBarcode, { location_id: a.id, quantity: 24 })).toMatchObject({
      result: "unknown",
      product_id: null,
      counted: 24,
    });

    const r = await review(session.id);
    expect(lineOf(r, here.id)).toMatchObject({ status: "counted", expected: 2, counted: 2, difference: 0 });
    expect(lineOf(r, missing.id)).toMatchObject({
      status: "missing",
      expected: 3,
      counted: 0,
      difference: -3,
      value_at_cost: -150,
      value_at_price: -270,
    });
    expect(lineOf(r, elsewhere.id)).toMatchObject({
      status: "misplaced",
      location: b.name,
      found_in: [a.name],
      expected: 4,
      counted: 1,
      difference: -3,
      value_at_cost: null,
      value_at_price: -3000,
    });
    expect(r.lines.find((l) => l.barcode === unknownBarcode)).toMatchObject({ status: "unknown", product_id: null, counted: 24 });
    expect(r.locations.find((l) => l.location === a.name)).toMatchObject({
      lines: 2,
      difference: -3,
      value_at_cost: -150,
      value_at_price: -270,
    });
    expect(r.locations.find((l) => l.location === b.name)).toMatchObject({ lines: 1, difference: -3, value_at_price: -3000 });
    expect(r.totals).toMatchObject({ lines: 3, difference: -6, value_at_cost: -150, value_at_price: -3270 });

    // Approving some: only the missing product changes.
    const res = await manager.post(`/api/stock-takes/${session.id}/approve`, { product_ids: [missing.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(missing.id)).toBe(0);
    expect(await stockOf(elsewhere.id)).toBe(4);
    expect(lineOf(res.json<StockTakeReview>(), missing.id)).toMatchObject({ status: "missing", applied: -3 });
  });

  it("counts both of two devices scanning the same product at once, each from the same first-scan snapshot", async () => {
    const product = await manager.create({ quantity_on_hand: 40 });
    const session = await start(inventory, { whole_shop: true });
    const other = await signIn("inventory");
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => scan(inventory, session.id, product.barcode)),
      ...Array.from({ length: 5 }, () => scan(other, session.id, product.barcode, { quantity: 2 })),
      tap(product, -1),
    ]);
    const scans = answers.filter((a): a is ScanAnswer => a !== undefined);
    expect(scans.filter((a) => a.result === "found")).toHaveLength(1);
    expect(Math.max(...scans.map((a) => a.counted))).toBe(15);
    const line = lineOf(await review(session.id), product.id);
    // The tap landed before or after the first scan: either way expected is the stock now.
    expect(line).toMatchObject({ counted: 15, expected: 39, difference: -24 });
  });

  it("counts a replayed client_scan_id once, sent again later or twice at once", async () => {
    const product = await manager.create({ quantity_on_hand: 5 });
    const session = await start(inventory, { whole_shop: true });
    const id = randomUUID();
    const firstAnswer = await scan(inventory, session.id, product.barcode, { client_scan_id: id, quantity: 3 });
    const again = await scan(inventory, session.id, product.barcode, { client_scan_id: id, quantity: 3 });
    expect(again).toMatchObject({ replayed: true, counted: 3, result: firstAnswer.result });
    expect(again.scan.id).toBe(firstAnswer.scan.id);
    const twin = randomUUID();
    const both = await Promise.all([
      scan(inventory, session.id, product.barcode, { client_scan_id: twin }),
      scan(inventory, session.id, product.barcode, { client_scan_id: twin }),
    ]);
    expect(both.filter((a) => a.replayed)).toHaveLength(1);
    // A backlog with a replay inside it: applied in order, each once.
    const backlog = await inventory.post(`/api/stock-takes/${session.id}/scans`, {
      scans: [
        { client_scan_id: id, barcode: product.barcode, quantity: 3 },
        { client_scan_id: randomUUID(), barcode: product.barcode },
      ],
    });
    const answered = backlog.json<ScansAnswer>();
    expect(answered.scans.map((s) => [s.replayed, s.counted])).toEqual([
      [true, 3],
      [false, 5],
    ]);
    // The session as read after them: its scan count orders a device's data (replays are no new scans).
    expect(answered.stock_take).toMatchObject({ id: session.id, status: "counting", scans: 3 });
    expect(lineOf(await review(session.id), product.id)?.counted).toBe(5);
    const rows = await t.app.db
      .select()
      .from(stockTakeScans)
      .where(and(eq(stockTakeScans.stockTakeId, session.id), eq(stockTakeScans.clientScanId, id)));
    expect(rows).toHaveLength(1);
  });

  it("applies an approval once when it is sent twice at once", async () => {
    const product = await manager.create({ quantity_on_hand: 10 });
    const session = await start(inventory, { whole_shop: true });
    await scan(inventory, session.id, product.barcode, { quantity: 7 });
    const other = await signIn("manager");
    const [x, y] = await Promise.all([
      manager.post(`/api/stock-takes/${session.id}/approve`, { product_ids: [product.id] }),
      other.post(`/api/stock-takes/${session.id}/approve`, { product_ids: [product.id] }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    expect(await stockOf(product.id)).toBe(7);
    const tagged = await t.app.db.select().from(quantityAudit).where(eq(quantityAudit.stockTakeId, session.id));
    expect(tagged.map((a) => a.quantityChange)).toEqual([-3]);
  });

  it("approves like any stock change: a webhook delivery in the same transaction, the session in the audit API", async () => {
    const hook = await manager.post("/api/webhooks", { url: "https://shop.example.com/webhooks", events: ["inventory.quantity_changed"] });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json<{ webhook: { id: number } }>().webhook.id;
    const product = await manager.create({ quantity_on_hand: 3 });
    const session = await start(inventory, { whole_shop: true });
    await scan(inventory, session.id, product.barcode, { quantity: 5 });
    const res = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(product.id)).toBe(5);
    const deliveries = await t.app.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.productId, product.id)));
    expect(deliveries.map((d) => [d.type, (d.data as { product?: Product }).product?.quantity_on_hand])).toEqual([
      ["inventory.quantity_changed", 5],
    ]);
    const audit = await manager.get(`/api/audit/quantity?limit=1000`);
    expect(audit.json<QuantityAuditEntry[]>().find((e) => e.product_id === product.id && e.stock_take_id === session.id)).toMatchObject({
      quantity_change: 2,
      notes: `Stock take #${session.number}`,
    });
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/webhooks/${webhookId}`, headers: { cookie: managerCookie } })).statusCode,
    ).toBe(204);
  });

  it("cancels without changing stock; a finished session takes no scans", async () => {
    const product = await manager.create({ quantity_on_hand: 4 });
    const session = await start(inventory, { whole_shop: true });
    await scan(inventory, session.id, product.barcode);
    const finished = await inventory.post(`/api/stock-takes/${session.id}/finish`, {});
    expect(finished.json<{ stock_take: StockTake }>().stock_take.status).toBe("review");
    expect(
      (
        await inventory.post(`/api/stock-takes/${session.id}/scans`, {
          scans: [{ client_scan_id: randomUUID(), barcode: product.barcode }],
        })
      ).statusCode,
    ).toBe(409);
    const cancelled = await inventory.post(`/api/stock-takes/${session.id}/cancel`, {});
    expect(cancelled.json<{ stock_take: StockTake }>().stock_take.status).toBe("cancelled");
    expect((await inventory.post(`/api/stock-takes/${session.id}/cancel`, {})).statusCode).toBe(409);
    expect((await manager.post(`/api/stock-takes/${session.id}/approve`, {})).statusCode).toBe(409);
    expect(await stockOf(product.id)).toBe(4);
    const list = (await inventory.get("/api/stock-takes?status=cancelled")).json<StockTake[]>();
    expect(list.some((s) => s.id === session.id && s.scans === 1)).toBe(true);
  });
});

describe("who may count and approve", () => {
  it("streamers may do none of it; inventory staff start, count and review but do not approve", async () => {
    const loc = await newLocation();
    const session = await start(inventory, { location_ids: [loc.id] });
    for (const [method, url] of [
      ["GET", "/api/locations"],
      ["POST", "/api/locations"],
      ["POST", "/api/locations/from-products"],
      ["GET", "/api/stock-takes"],
      ["POST", "/api/stock-takes"],
      ["GET", `/api/stock-takes/${session.id}`],
      ["POST", `/api/stock-takes/${session.id}/scans`],
      ["GET", `/api/stock-takes/${session.id}/review`],
      ["POST", `/api/stock-takes/${session.id}/approve`],
      ["POST", `/api/stock-takes/${session.id}/cancel`],
    ] as const) {
      const res = method === "GET" ? await streamer.get(url) : await streamer.post(url, {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await inventory.get(`/api/stock-takes/${session.id}`)).statusCode).toBe(200);
    expect((await inventory.post(`/api/stock-takes/${session.id}/approve`, {})).statusCode).toBe(403);
    expect((await manager.post(`/api/stock-takes/${session.id}/approve`, {})).statusCode).toBe(200);
  });

  it("sends scans live to those who may count", async () => {
    const product = await manager.create({ quantity_on_hand: 1 });
    const session = await start(inventory, { whole_shop: true });
    const heard: StockTakeUpdate[] = [];
    const listener = (e: StockTakeUpdate) => heard.push(e);
    t.app.events.on("stock_take_update", listener);
    await scan(inventory, session.id, product.barcode);
    t.app.events.off("stock_take_update", listener);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ type: "stock_take_scanned", stock_take: { id: session.id, scans: 1 } });
    expect(heard[0]?.scans?.map((s) => s.product_id)).toEqual([product.id]);
  });
});
