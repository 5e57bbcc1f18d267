import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate } from "../../../contract/events.js";
import type { Product } from "../../../contract/products.js";
import type {
  DropUnknownAnswer,
  Location,
  ReviewLine,
  ReviewLineAnswer,
  StockTake,
  StockTakeReview,
  StockTakeUpdate,
} from "../../../contract/stock-takes.js";
import { productAudit, products, stockTakeScans, webhookDeliveries } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents } from "../../test/product-calls.js";
import { reviewOf, scanOnce } from "../../test/stock-takes.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** The review's actions (issue 41): a misplaced product moved or counted where it was found, an unknown barcode linked or dropped. */

type Api = ReturnType<typeof caller>;
let t: TestApp;
let manager: Api;
let managerCookie: string;
let inventory: Api;
let streamer: Api;

beforeAll(async () => {
  t = await createTestApp();
  managerCookie = (await signedIn(t.app, "manager")).cookie;
  manager = caller(t.app, managerCookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

async function newLocation(): Promise<Location> {
  const res = await inventory.post("/api/locations", { name: newBarcode("Shelf ") });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Location>();
}

async function start(scope: { location_ids: number[] } | { whole_shop: true }): Promise<StockTake> {
  const res = await inventory.post("/api/stock-takes", { scope });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ stock_take: StockTake }>().stock_take;
}

const scan = (session: number, barcode: string, opts: { quantity?: number; location_id?: number } = {}) =>
  scanOnce(inventory, session, barcode, opts);
const review = (session: number) => reviewOf(inventory, session);

const lineOf = (r: StockTakeReview, productId: number) => r.lines.find((l) => l.product_id === productId);
const unknownOf = (r: StockTakeReview, barcode: string) => r.lines.find((l) => l.status === "unknown" && l.barcode === barcode);
const productRow = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0];

/** The stock_take_update events raised while `work` runs. */
async function heard(work: () => Promise<unknown>): Promise<StockTakeUpdate[]> {
  const events: StockTakeUpdate[] = [];
  const listener = (e: StockTakeUpdate) => events.push(e);
  t.app.events.on("stock_take_update", listener);
  try {
    await work();
  } finally {
    t.app.events.off("stock_take_update", listener);
  }
  return events;
}

describe("a product found in another location", () => {
  it("is moved there through the products' edit path: audited, live, webhook, version and revision; then a counted line", async () => {
    const hook = await manager.post("/api/webhooks", { url: "https://shop.example.com/moved", events: ["product.updated"] });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json<{ webhook: { id: number } }>().webhook.id;
    const [a, b, c] = [await newLocation(), await newLocation(), await newLocation()];
    const product = await manager.create({ quantity_on_hand: 3, location: a.name });
    const session = await start({ location_ids: [a.id, b.id, c.id] });
    // Found in two other locations: the user picks which.
    await scan(session.id, product.barcode, { location_id: b.id });
    await scan(session.id, product.barcode, { location_id: c.id, quantity: 2 });
    expect(lineOf(await review(session.id), product.id)).toMatchObject({ status: "misplaced", found_in: [b.name, c.name].sort() });

    const rec = recordEvents(t.app);
    let res: Awaited<ReturnType<Api["post"]>> | undefined;
    const events = await heard(async () => {
      res = await inventory.post(`/api/stock-takes/${session.id}/misplaced/move`, {
        product_id: product.id,
        location: c.name.toUpperCase(),
      });
    });
    rec.stop();
    expect(res?.statusCode, res?.body).toBe(200);
    const line = res?.json<ReviewLineAnswer>().line as ReviewLine;
    expect(line).toMatchObject({
      product_id: product.id,
      status: "counted",
      placement: "moved",
      location: c.name,
      counted: 3,
      expected: 3,
    });
    expect(events.map((e) => [e.type, e.stock_take.id])).toEqual([["stock_take_reviewed", session.id]]);

    const row = await productRow(product.id);
    expect(row).toMatchObject({ location: c.name, version: product.version + 1 });
    expect(row?.revision).toBeGreaterThan(product.revision);
    const audit = await t.app.db.select().from(productAudit).where(eq(productAudit.productId, product.id)).orderBy(asc(productAudit.id));
    expect(audit.at(-1)).toMatchObject({
      action: "UPDATE",
      changedFields: ["location"],
      oldValues: { location: a.name },
      newValues: { location: c.name },
    });
    expect(rec.events.find((e: InventoryUpdate) => e.type === "product_updated" && e.data.id === product.id)).toBeDefined();
    const deliveries = await t.app.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.productId, product.id)));
    expect(deliveries.map((d) => [d.type, (d.data as { product?: Product }).product?.location])).toEqual([["product.updated", c.name]]);
    expect(lineOf(await review(session.id), product.id)).toMatchObject({ status: "counted", placement: "moved" });
    expect((await manager.delete(`/api/webhooks/${webhookId}`)).statusCode).toBe(204);
  });

  it("is counted where it was found and keeps its location; nothing else changes", async () => {
    const [a, b] = [await newLocation(), await newLocation()];
    const product = await manager.create({ quantity_on_hand: 2, location: a.name });
    const session = await start({ location_ids: [a.id, b.id] });
    await scan(session.id, product.barcode, { location_id: b.id, quantity: 2 });
    const res = await inventory.post(`/api/stock-takes/${session.id}/misplaced/keep`, { product_id: product.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ReviewLineAnswer>().line).toMatchObject({ status: "counted", placement: "kept", location: a.name, found_in: [b.name] });
    expect(await productRow(product.id)).toMatchObject({ location: a.name, version: product.version });
    const after = await review(session.id);
    expect(lineOf(after, product.id)).toMatchObject({ status: "counted", placement: "kept" });
    expect(after.lines.filter((l) => l.status === "misplaced")).toEqual([]);
    // Changed mind: moved after all.
    const moved = await inventory.post(`/api/stock-takes/${session.id}/misplaced/move`, { product_id: product.id, location: b.name });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<ReviewLineAnswer>().line).toMatchObject({ placement: "moved", location: b.name });
  });

  it("is refused (409) where it was not scanned, for a line not misplaced, and once the session is approved", async () => {
    const [a, b, c] = [await newLocation(), await newLocation(), await newLocation()];
    const away = await manager.create({ quantity_on_hand: 1, location: a.name });
    const home = await manager.create({ quantity_on_hand: 1, location: a.name });
    const never = await manager.create({ quantity_on_hand: 1, location: a.name });
    const session = await start({ location_ids: [a.id, b.id, c.id] });
    await scan(session.id, away.barcode, { location_id: b.id });
    await scan(session.id, home.barcode, { location_id: a.id });
    const move = (product_id: number, location: string) =>
      inventory.post(`/api/stock-takes/${session.id}/misplaced/move`, { product_id, location });
    const keep = (product_id: number) => inventory.post(`/api/stock-takes/${session.id}/misplaced/keep`, { product_id });
    expect((await move(away.id, c.name)).json()).toEqual({ error: "This product was not scanned in that location in this stock take" });
    for (const res of [await move(home.id, a.name), await keep(home.id), await keep(never.id), await move(never.id, b.name)]) {
      expect(res.statusCode, res.body).toBe(409);
    }
    expect((await move(away.id, "")).statusCode).toBe(400);
    expect((await inventory.post("/api/stock-takes/2147483647/misplaced/keep", { product_id: away.id })).statusCode).toBe(404);
    expect((await streamer.post(`/api/stock-takes/${session.id}/misplaced/keep`, { product_id: away.id })).statusCode).toBe(403);
    expect((await productRow(away.id))?.location).toBe(a.name);

    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, { product_ids: [home.id] });
    expect(approved.statusCode, approved.body).toBe(200);
    const late = await keep(away.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: "This stock take is no longer counting or in review" });
  });
});

describe("an unknown barcode", () => {
  it("is linked to the product created for it: its scans become the product's, expected taken at the link as at a first scan", async () => {
    const loc = await newLocation();
    const session = await start({ location_ids: [loc.id] });
    const barcode = newBarcode("NEW");
    await scan(session.id, barcode, { location_id: loc.id, quantity: 4 });
    await scan(session.id, barcode, { location_id: loc.id });
    expect(unknownOf(await review(session.id), barcode)).toMatchObject({ counted: 5, catalogue_product: null });

    // Created from the review's Add product form with the barcode filled in; stock 3 as typed.
    const product = await manager.create({ barcode, quantity_on_hand: 3, cost: 100, price: 300 });
    expect(unknownOf(await review(session.id), barcode)).toMatchObject({
      catalogue_product: { id: product.id, name: product.product_name },
    });
    // A sale before the link is in the expected figure; one after moves it.
    const sold = await streamer.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold" });
    expect(sold.statusCode, sold.body).toBe(200);

    let res: Awaited<ReturnType<Api["post"]>> | undefined;
    const events = await heard(async () => {
      res = await inventory.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode, product_id: product.id });
    });
    expect(res?.statusCode, res?.body).toBe(200);
    // No location of its own: counted where it was found.
    expect(res?.json<ReviewLineAnswer>().line).toMatchObject({
      product_id: product.id,
      status: "counted",
      placement: "kept",
      expected: 2,
      counted: 5,
      difference: 3,
      value_at_cost: 300,
      found_in: [loc.name],
    });
    expect(events.map((e) => e.type)).toEqual(["stock_take_reviewed"]);
    const sold2 = await streamer.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold" });
    expect(sold2.statusCode, sold2.body).toBe(200);
    const after = await review(session.id);
    expect(unknownOf(after, barcode)).toBeUndefined();
    expect(lineOf(after, product.id)).toMatchObject({ expected: 1, counted: 5, difference: 4 });
    const scans = await t.app.db.select().from(stockTakeScans).where(eq(stockTakeScans.stockTakeId, session.id));
    expect(scans.map((s) => s.productId)).toEqual([product.id, product.id]);
    // Nothing left to link; a later scan counts to the product.
    expect((await inventory.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode, product_id: product.id })).statusCode).toBe(409);
    expect(await scan(session.id, barcode, { location_id: loc.id })).toMatchObject({ product_id: product.id, counted: 6 });

    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await productRow(product.id))?.quantityOnHand).toBe(6);
  });

  it("is linked to a product created elsewhere with the barcode in another GTIN form, and adds to a line it already has", async () => {
    const session = await start({ whole_shop: true });
    const upc = "820650853548";
    await scan(session.id, upc, { quantity: 2 });
    const product = await manager.create({ barcode: `0${upc}`, quantity_on_hand: 1, location: "Back room" });
    // Scanned by its own barcode too, after it was created.
    await scan(session.id, `0${upc}`);
    const res = await inventory.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode: upc, product_id: product.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ReviewLineAnswer>().line).toMatchObject({ counted: 3, expected: 1, placement: null, status: "counted" });
  });

  it("is refused when the product does not have the barcode (409), does not exist (404), or the caller may not count (403)", async () => {
    const session = await start({ whole_shop: true });
    const barcode = newBarcode("UNK");
    await scan(session.id, barcode);
    const other = await manager.create({});
    const link = (api: Api, product_id: number) => api.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode, product_id });
    const wrong = await link(inventory, other.id);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toEqual({ error: "This product does not have this barcode: add the barcode to it first" });
    expect((await link(inventory, 2_000_000_000)).statusCode).toBe(404);
    expect((await link(streamer, other.id)).statusCode).toBe(403);
    expect((await inventory.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode })).statusCode).toBe(400);
    expect(unknownOf(await review(session.id), barcode)).toMatchObject({ counted: 1 });
  });

  it("is dropped: its scans kept for the record, out of the review and the report; a later scan is unknown again", async () => {
    const session = await start({ whole_shop: true });
    const barcode = newBarcode("DROP");
    await scan(session.id, barcode, { quantity: 3 });
    let res: Awaited<ReturnType<Api["post"]>> | undefined;
    const events = await heard(async () => {
      res = await inventory.post(`/api/stock-takes/${session.id}/unknown/drop`, { barcode });
    });
    expect(res?.statusCode, res?.body).toBe(200);
    expect(res?.json<DropUnknownAnswer>()).toEqual({ barcode, dropped: 1 });
    expect(events.map((e) => [e.type, e.stock_take.scans])).toEqual([["stock_take_reviewed", 1]]);
    expect(unknownOf(await review(session.id), barcode)).toBeUndefined();
    const csv = await inventory.get(`/api/stock-takes/${session.id}/report.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(barcode);
    const [kept] = await t.app.db.select().from(stockTakeScans).where(eq(stockTakeScans.barcode, barcode));
    expect(kept?.droppedAt).toBeInstanceOf(Date);
    expect(kept?.droppedBy).toBeTruthy();
    expect((await inventory.post(`/api/stock-takes/${session.id}/unknown/drop`, { barcode })).statusCode).toBe(409);

    expect(await scan(session.id, barcode)).toMatchObject({ result: "unknown", counted: 1 });
    expect(unknownOf(await review(session.id), barcode)).toMatchObject({ counted: 1 });
    // A product made since is linked with the scans not dropped only.
    const product = await manager.create({ barcode, quantity_on_hand: 0 });
    const linked = await inventory.post(`/api/stock-takes/${session.id}/unknown/link`, { barcode, product_id: product.id });
    expect(linked.json<ReviewLineAnswer>().line).toMatchObject({ counted: 1 });
  });

  it("is linked or dropped only while counting or in review, by whoever may count, a stock_takes:write token too", async () => {
    const token = await manager.post("/api/tokens", { name: "Handheld scanner", scopes: ["stock_takes:write"] });
    expect(token.statusCode, token.body).toBe(201);
    const secret = token.json<{ secret: string }>().secret;
    const handheld = (url: string, payload: unknown) =>
      t.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${secret}` }, payload: payload as object });

    const [a, b] = [await newLocation(), await newLocation()];
    const session = await start({ location_ids: [a.id, b.id] });
    const finish = await inventory.post(`/api/stock-takes/${session.id}/finish`, {});
    expect(finish.statusCode, finish.body).toBe(200);
    // In review, nothing scanned: the actions find nothing to settle.
    expect((await handheld(`/api/stock-takes/${session.id}/unknown/drop`, { barcode: "nothing" })).statusCode).toBe(409);

    const counting = await start({ location_ids: [a.id, b.id] });
    const barcode = newBarcode("TOK");
    const away = await manager.create({ location: a.name });
    await scan(counting.id, barcode);
    await scan(counting.id, away.barcode, { location_id: b.id });
    expect((await handheld(`/api/stock-takes/${counting.id}/unknown/drop`, { barcode })).statusCode).toBe(200);
    const moved = await handheld(`/api/stock-takes/${counting.id}/misplaced/move`, { product_id: away.id, location: b.name });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await productRow(away.id))?.location).toBe(b.name);
    const readOnly = await manager.post("/api/tokens", { name: "Reader", scopes: ["products:read"] });
    const readSecret = readOnly.json<{ secret: string }>().secret;
    const refused = await t.app.inject({
      method: "POST",
      url: `/api/stock-takes/${counting.id}/misplaced/keep`,
      headers: { authorization: `Bearer ${readSecret}` },
      payload: { product_id: away.id },
    });
    expect(refused.statusCode).toBe(403);

    const cancelled = await inventory.post(`/api/stock-takes/${counting.id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.db.update(stockTakeScans).set({ droppedAt: null }).where(eq(stockTakeScans.barcode, barcode));
    const late = await inventory.post(`/api/stock-takes/${counting.id}/unknown/drop`, { barcode });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: "This stock take is no longer counting or in review" });
  });
});
