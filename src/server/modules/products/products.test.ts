import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { MESSAGES } from "../../../contract/rules.js";
import { idempotencyKeys, productAudit, products, quantityAudit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, ISO_UTC, newBarcode, recordEvents, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { deleteExpiredIdempotencyKeys } from "./idempotency.repo.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let managerId: number;
let streamerId: number;

async function signIn(role: Role) {
  const { user, cookie } = await signedIn(t.app, role);
  return { user, api: caller(t.app, cookie), cookie };
}

let listening: string | undefined;
/** The app on a real port, for requests that must overlap. */
async function baseUrl(): Promise<string> {
  listening ??= await t.app.listen({ port: 0, host: "127.0.0.1" });
  return listening;
}

beforeAll(async () => {
  t = await createTestApp();
  const m = await signIn("manager");
  manager = m.api;
  managerId = m.user.id;
  inventory = (await signIn("inventory")).api;
  const s = await signIn("streamer");
  streamer = s.api;
  streamerId = s.user.id;
});
afterAll(async () => {
  await t?.close();
});

const productAuditOf = (id: number) => t.app.db.select().from(productAudit).where(eq(productAudit.productId, id)).orderBy(productAudit.id);
const quantityAuditOf = (id: number) =>
  t.app.db.select().from(quantityAudit).where(eq(quantityAudit.productId, id)).orderBy(quantityAudit.id);
const quantityOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;

describe("signed out", () => {
  it("answers 401 on every products route, before validating input", async () => {
    const anon = caller(t.app, "");
    for (const [method, url] of [
      ["GET", "/api/products"],
      ["GET", "/api/products/barcode/ABC123"],
      ["POST", "/api/products"],
      ["PUT", "/api/products/1"],
      ["PUT", "/api/products/1/quantity"],
      ["PUT", "/api/products/1/status"],
      ["POST", "/api/products/import"],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === "GET" ? undefined : { nonsense: true } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await anon.get("/api/products")).statusCode).toBe(401);
  });
});

describe("POST /api/products", () => {
  it("creates a product (201) with audit CREATE, a quantity entry `create` and a product_created event", async () => {
    const rec = recordEvents(t.app);
    const barcode = newBarcode();
    const res = await manager.post("/api/products", {
      barcode: `  ${barcode} `,
      product_name: " Prizm Box ",
      vendor: "Panini",
      release_year: 2023,
      quantity_on_hand: 7,
    });
    rec.stop();
    expect(res.statusCode).toBe(201);
    const p = res.json<Product>();
    expect(p).toEqual({
      id: expect.any(Number),
      barcode,
      product_name: "Prizm Box",
      vendor: "Panini",
      release_year: 2023,
      quantity_on_hand: 7,
      is_active: true,
      price: null,
      cost: null,
      condition: null,
      grader: null,
      grade: null,
      set_name: null,
      card_number: null,
      location: null,
      reorder_point: null,
      photos: [],
      version: 1,
      revision: expect.any(Number),
      created_at: expect.stringMatching(ISO_UTC),
      updated_at: expect.stringMatching(ISO_UTC),
    });
    const [audit, ...more] = await productAuditOf(p.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({
      action: "CREATE",
      userId: managerId,
      productName: "Prizm Box",
      barcode,
      oldValues: null,
      newValues: { barcode, product_name: "Prizm Box", vendor: "Panini", release_year: 2023, quantity_on_hand: 7, is_active: true },
      ipAddress: "127.0.0.1",
    });
    expect(audit?.changedFields).toEqual(["barcode", "product_name", "vendor", "release_year", "quantity_on_hand", "is_active"]);
    const q = await quantityAuditOf(p.id);
    expect(q).toMatchObject([{ transactionType: "create", quantityChange: 7, quantityBefore: 0, quantityAfter: 7, userId: managerId }]);
    expect(rec.events).toEqual([
      {
        type: "product_created",
        data: { id: p.id, product_name: "Prizm Box", updated_by: expect.any(String), quantity_on_hand: 7, is_active: true, product: p },
        timestamp: expect.stringMatching(ISO_UTC),
        userId: managerId,
      },
    ]);
  });

  it("writes no quantity entry for a product created with stock 0, and defaults release_year and stock", async () => {
    const res = await inventory.post("/api/products", { barcode: newBarcode(), product_name: "No Stock", vendor: "Topps" });
    expect(res.statusCode).toBe(201);
    const p = res.json<Product>();
    expect(p).toMatchObject({ release_year: null, quantity_on_hand: 0 });
    expect(await productAuditOf(p.id)).toHaveLength(1);
    expect(await quantityAuditOf(p.id)).toEqual([]);
  });

  it("refuses a barcode that exists with 409 and changes nothing", async () => {
    const p = await manager.create();
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await manager.post("/api/products", { barcode: p.barcode, product_name: "Other", vendor: "Other" });
    rec.stop();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: MESSAGES.barcodeExists });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);
  });

  it.each([
    [{ product_name: "x", vendor: "y" }, MESSAGES.productRequired],
    [{ barcode: "   ", product_name: "x", vendor: "y" }, MESSAGES.productRequired],
    [{ barcode: "ABC", product_name: "x", vendor: "" }, MESSAGES.productRequired],
    [{ barcode: "ABC", product_name: "x", vendor: "y", release_year: 1899 }, MESSAGES.releaseYearRange],
    [{ barcode: "ABC", product_name: "x", vendor: "y", release_year: 2031 }, MESSAGES.releaseYearRange],
    [{ barcode: "ABC", product_name: "x", vendor: "y", quantity_on_hand: -1 }, MESSAGES.quantityInvalid],
    [{ barcode: "ABC", product_name: "x", vendor: "y", quantity_on_hand: 1.5 }, MESSAGES.quantityInvalid],
    [{ barcode: "ABC", product_name: "x", vendor: "y", quantity_on_hand: 1_000_000_000 }, MESSAGES.quantityInvalid],
    [{ barcode: "A".repeat(65), product_name: "x", vendor: "y" }, "Barcode must be at most 64 characters"],
  ])("answers 400 for invalid input %j", async (body, message) => {
    const res = await manager.post("/api/products", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it("is refused to a streamer (403)", async () => {
    const res = await streamer.post("/api/products", { barcode: newBarcode(), product_name: "x", vendor: "y" });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });
});

describe("GET /api/products and /api/products/barcode/:barcode", () => {
  it("lists all products newest first, to every signed-in role", async () => {
    const a = await manager.create();
    const b = await manager.create();
    await manager.put(`/api/products/${b.id}/status`, { is_active: false });
    for (const who of [manager, inventory, streamer]) {
      const res = await who.get("/api/products");
      expect(res.statusCode).toBe(200);
      const list = res.json<Product[]>();
      const ids = list.map((p) => p.id);
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
      expect(list.find((p) => p.id === b.id)?.is_active).toBe(false);
    }
    // The list has exactly the shape and values of a single product answer.
    const list = (await manager.get("/api/products")).json<Product[]>();
    for (const p of [a, b]) {
      expect(list.find((x) => x.id === p.id)).toEqual((await manager.get(`/api/products/barcode/${p.barcode}`)).json());
    }
  });

  it("finds a product by barcode, active or not; 404 with the spec's text otherwise", async () => {
    const p = await manager.create();
    await manager.put(`/api/products/${p.id}/status`, { is_active: false });
    const res = await streamer.get(`/api/products/barcode/${encodeURIComponent(p.barcode)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, is_active: false, version: 2 });
    const missing = await streamer.get("/api/products/barcode/NO-SUCH-BARCODE");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Product not found" });
  });
});

describe("PUT /api/products/:id", () => {
  const edit = (p: Product, changes: Record<string, unknown>) => ({
    barcode: p.barcode,
    product_name: p.product_name,
    vendor: p.vendor,
    release_year: p.release_year,
    quantity_on_hand: p.quantity_on_hand,
    ...changes,
  });

  it("audits only the changed fields with old and new values and bumps the version", async () => {
    const p = await manager.create({ quantity_on_hand: 4 });
    const rec = recordEvents(t.app);
    const res = await inventory.put(`/api/products/${p.id}`, edit(p, { vendor: "Upper Deck", release_year: null }));
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ vendor: "Upper Deck", release_year: null, version: 2 });
    expect(res.json().updated_at).toMatch(ISO_UTC);
    const audits = await productAuditOf(p.id);
    expect(audits.map((a) => a.action)).toEqual(["CREATE", "UPDATE"]);
    expect(audits[1]).toMatchObject({
      changedFields: ["vendor", "release_year"],
      oldValues: { vendor: "Topps", release_year: 2024 },
      newValues: { vendor: "Upper Deck", release_year: null },
      ipAddress: "127.0.0.1",
    });
    expect((await quantityAuditOf(p.id)).map((q) => q.transactionType)).toEqual(["create"]);
    expect(rec.events).toMatchObject([{ type: "product_updated", data: { id: p.id, product_name: p.product_name, quantity_on_hand: 4 } }]);
  });

  it("writes a quantity entry `edit` when the stock changes", async () => {
    const p = await manager.create({ quantity_on_hand: 4 });
    const res = await manager.put(`/api/products/${p.id}`, edit(p, { quantity_on_hand: 9 }));
    expect(res.statusCode).toBe(200);
    expect((await quantityAuditOf(p.id)).at(-1)).toMatchObject({
      transactionType: "edit",
      quantityChange: 5,
      quantityBefore: 4,
      quantityAfter: 9,
    });
    expect((await productAuditOf(p.id)).at(-1)).toMatchObject({
      action: "UPDATE",
      changedFields: ["quantity_on_hand"],
      oldValues: { quantity_on_hand: 4 },
      newValues: { quantity_on_hand: 9 },
    });
  });

  it("writes nothing when nothing changed", async () => {
    const p = await manager.create();
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await manager.put(`/api/products/${p.id}`, edit(p, { product_name: ` ${p.product_name} `, version: 1 }));
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(p);
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);
  });

  it("refuses a stale version with 409 and the current product, and changes nothing", async () => {
    const p = await manager.create();
    await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: 1 });
    const current = (await manager.get(`/api/products/barcode/${p.barcode}`)).json<Product>();
    expect(current.version).toBe(2);
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await manager.put(`/api/products/${p.id}`, edit(p, { product_name: "Stale edit", version: 1 }));
    rec.stop();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "This product was changed by someone else", product: current, fields: ["quantity_on_hand"] });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);

    const fresh = await manager.put(`/api/products/${p.id}`, edit(current, { product_name: "Fresh edit", version: 2 }));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ product_name: "Fresh edit", version: 3 });
  });

  it("answers 409 for a barcode another product has, 404 for an unknown id, 400 for bad input, 403 for a streamer", async () => {
    const a = await manager.create();
    const b = await manager.create();
    const taken = await manager.put(`/api/products/${b.id}`, edit(b, { barcode: a.barcode }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: MESSAGES.barcodeExists });
    expect((await manager.put("/api/products/999999", edit(b, {}))).json()).toEqual({ error: "Product not found" });
    // Ids are PostgreSQL integers: anything above 2147483647 is not an id at all.
    expect((await manager.put("/api/products/99999999999", edit(b, {}))).statusCode).toBe(400);
    expect((await manager.put("/api/products/abc", edit(b, {}))).statusCode).toBe(400);
    const bad = await manager.put(`/api/products/${b.id}`, edit(b, { quantity_on_hand: -3 }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MESSAGES.quantityInvalid);
    expect((await streamer.put(`/api/products/${b.id}`, edit(b, { product_name: "nope" }))).statusCode).toBe(403);
  });
});

describe("PUT /api/products/:id/status", () => {
  it("disables and enables with audit DISABLE/ENABLE and status_changed events; streamers get 403", async () => {
    const p = await manager.create();
    const rec = recordEvents(t.app);
    const off = await inventory.put(`/api/products/${p.id}/status`, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ is_active: false, version: 2 });
    const on = await manager.put(`/api/products/${p.id}/status`, { is_active: true });
    expect(on.json()).toMatchObject({ is_active: true, version: 3 });
    rec.stop();
    const audits = await productAuditOf(p.id);
    expect(audits.map((a) => a.action)).toEqual(["CREATE", "DISABLE", "ENABLE"]);
    expect(audits[1]).toMatchObject({ changedFields: ["is_active"], oldValues: { is_active: true }, newValues: { is_active: false } });
    expect(rec.events.map((e) => [e.type, e.data.is_active])).toEqual([
      ["status_changed", false],
      ["status_changed", true],
    ]);

    // Setting the state it already has changes nothing.
    const before = await snapshot(t.app.db);
    const same = await manager.put(`/api/products/${p.id}/status`, { is_active: true });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(on.json());
    expect(await snapshot(t.app.db)).toEqual(before);

    expect((await streamer.put(`/api/products/${p.id}/status`, { is_active: false })).statusCode).toBe(403);
    expect((await manager.put("/api/products/999999/status", { is_active: false })).statusCode).toBe(404);
    expect((await manager.put(`/api/products/${p.id}/status`, { is_active: "no" })).statusCode).toBe(400);
  });
});

describe("PUT /api/products/:id/quantity", () => {
  it("adds and subtracts atomically with audit QUANTITY_ADD/SUBTRACT, an `adjustment` entry and a quantity_changed event", async () => {
    const p = await manager.create({ quantity_on_hand: 3 });
    const rec = recordEvents(t.app);
    const sold = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1, reason: "Streamer adjustment" });
    expect(sold.statusCode).toBe(200);
    expect(sold.json()).toMatchObject({ id: p.id, quantity_on_hand: 2, version: 2 });
    const added = await inventory.put(`/api/products/${p.id}/quantity`, { quantity_change: 5 });
    expect(added.json()).toMatchObject({ quantity_on_hand: 7, version: 3 });
    rec.stop();

    const audits = await productAuditOf(p.id);
    expect(audits.slice(1)).toMatchObject([
      { action: "QUANTITY_SUBTRACT", userId: streamerId, oldValues: { quantity_on_hand: 3 }, newValues: { quantity_on_hand: 2 } },
      { action: "QUANTITY_ADD", oldValues: { quantity_on_hand: 2 }, newValues: { quantity_on_hand: 7 } },
    ]);
    expect((await quantityAuditOf(p.id)).slice(1)).toMatchObject([
      { transactionType: "adjustment", quantityChange: -1, quantityBefore: 3, quantityAfter: 2, notes: "Streamer adjustment" },
      { transactionType: "adjustment", quantityChange: 5, quantityBefore: 2, quantityAfter: 7, notes: "Manual update" },
    ]);
    expect(rec.events).toEqual([
      {
        type: "quantity_changed",
        data: {
          id: p.id,
          product_name: p.product_name,
          updated_by: expect.any(String),
          quantity_change: -1,
          quantity_on_hand: 2,
          is_active: true,
          product: sold.json(),
        },
        timestamp: expect.stringMatching(ISO_UTC),
        userId: streamerId,
      },
      expect.objectContaining({ type: "quantity_changed", data: expect.objectContaining({ quantity_change: 5, quantity_on_hand: 7 }) }),
    ]);
  });

  it("refuses going below 0 (409 Insufficient stock), a disabled product (409) and unknown ids (404), with no change and no event", async () => {
    const p = await manager.create({ quantity_on_hand: 1 });
    const d = await manager.create({ quantity_on_hand: 5 });
    await manager.put(`/api/products/${d.id}/status`, { is_active: false });
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);

    const short = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -2 });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toEqual({ error: "Insufficient stock" });
    const disabled = await streamer.put(`/api/products/${d.id}/quantity`, { quantity_change: 1 });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json()).toEqual({ error: "Product is disabled" });
    const missing = await streamer.put("/api/products/999999/quantity", { quantity_change: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "Product not found" });
    const tooMuch = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: 999_999_999 });
    expect(tooMuch.statusCode).toBe(409);

    rec.stop();
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);
  });

  it.each([[0], [1.5], ["1"], [null], [1_000_000_000]])("answers 400 for quantity_change %j", async (change) => {
    const p = await manager.create();
    const res = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: change });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MESSAGES.quantityChangeInvalid);
  });

  it("gives 50 concurrent -1 changes on a stock of 20 exactly 20 successes over real HTTP", async () => {
    const p = await manager.create({ quantity_on_hand: 20 });
    const s = await signIn("streamer");
    const base = await baseUrl();
    {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${base}/api/products/${p.id}/quantity`, {
            method: "PUT",
            headers: { cookie: s.cookie, "content-type": "application/json" },
            body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string; quantity_on_hand?: number } })),
        ),
      );
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 409);
      expect(ok).toHaveLength(20);
      expect(refused).toHaveLength(30);
      expect(refused.every((a) => a.body.error === "Insufficient stock")).toBe(true);
      expect(new Set(ok.map((a) => a.body.quantity_on_hand))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => i)));
      expect(await quantityOf(p.id)).toBe(0);
      const audits = await productAuditOf(p.id);
      expect(audits.filter((a) => a.action === "QUANTITY_SUBTRACT")).toHaveLength(20);
      expect((await quantityAuditOf(p.id)).filter((q) => q.transactionType === "adjustment")).toHaveLength(20);
    }
  });

  it("keeps 500 concurrent taps exact, and applies keyed retries sent at the same time once", { timeout: 120_000 }, async () => {
    const p = await manager.create({ quantity_on_hand: 300 });
    const s = await signIn("streamer");
    const base = await baseUrl();
    const send = (key?: string) =>
      fetch(`${base}/api/products/${p.id}/quantity`, {
        method: "PUT",
        headers: { cookie: s.cookie, "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
        body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
      }).then((r) => r.status);
    // 400 plain taps and 50 keyed taps each sent twice: 450 sales asked for, 300 in stock.
    const statuses = await Promise.all([
      ...Array.from({ length: 400 }, () => send()),
      ...Array.from({ length: 50 }, (_, i) => [send(`burst-${i}`), send(`burst-${i}`)]).flat(),
    ]);
    expect(statuses.filter((x) => x !== 200 && x !== 409)).toEqual([]);
    expect(await quantityOf(p.id)).toBe(0);
    expect((await quantityAuditOf(p.id)).filter((q) => q.transactionType === "adjustment")).toHaveLength(300);
    expect((await productAuditOf(p.id)).filter((a) => a.action === "QUANTITY_SUBTRACT")).toHaveLength(300);
    // A keyed pair answers alike: both 200 (one sale) or both 409.
    const keyed = statuses.slice(400);
    for (let i = 0; i < keyed.length; i += 2) expect(keyed[i], `burst-${i / 2}`).toBe(keyed[i + 1]);
  });
});

describe("Idempotency-Key on quantity changes", () => {
  const withKey = (key: string) => ({ "idempotency-key": key });

  it("answers a repeat with the first answer and changes nothing", async () => {
    const p = await manager.create({ quantity_on_hand: 5 });
    const first = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("tap-1"));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ quantity_on_hand: 4 });
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const again = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("tap-1"));
    rec.stop();
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);

    // Another key applies; the same key from another user is that user's own.
    expect((await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("tap-2"))).json()).toMatchObject({
      quantity_on_hand: 3,
    });
    expect((await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("tap-1"))).json()).toMatchObject({
      quantity_on_hand: 2,
    });
    const rows = await t.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "tap-1"));
    expect(rows.map((r) => r.userId).sort()).toEqual([managerId, streamerId].sort());
  });

  it("replays a first answer that was a 409, even after the stock changed", async () => {
    const p = await manager.create({ quantity_on_hand: 0 });
    const first = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("sold-out"));
    expect(first.statusCode).toBe(409);
    expect(first.json()).toEqual({ error: "Insufficient stock" });
    await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: 3 });
    const again = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("sold-out"));
    expect(again.statusCode).toBe(409);
    expect(again.body).toBe(first.body);
    expect(await quantityOf(p.id)).toBe(3);
  });

  it("refuses a stock count whose starting stock moved (409) and applies one that did not", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    // Counted 7 on a stock of 10 read before a sale: the sale happened meanwhile.
    await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 });
    const before = await snapshot(t.app.db);
    const stale = await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: -3, reason: "Recount", expected_quantity: 10 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: "The stock changed since the count was taken" });
    expect(await snapshot(t.app.db)).toEqual(before);
    const fresh = await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: -2, reason: "Recount", expected_quantity: 9 });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ quantity_on_hand: 7 });
    const [entry] = await t.app.db
      .select()
      .from(quantityAudit)
      .where(eq(quantityAudit.productId, p.id))
      .orderBy(desc(quantityAudit.id))
      .limit(1);
    expect(entry).toMatchObject({ quantityChange: -2, quantityBefore: 9, quantityAfter: 7, notes: "Recount" });
  });

  it("refuses the same key on another request with 422 and changes nothing", async () => {
    const p = await manager.create({ quantity_on_hand: 5 });
    const other = await manager.create({ quantity_on_hand: 5 });
    const first = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("one-sale"));
    expect(first.statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    for (const [id, body] of [
      [p.id, { quantity_change: -2 }],
      [p.id, { quantity_change: -1, reason: "Another reason" }],
      [other.id, { quantity_change: -1 }],
    ] as const) {
      const reused = await streamer.put(`/api/products/${id}/quantity`, body, withKey("one-sale"));
      expect(reused.statusCode, JSON.stringify(body)).toBe(422);
      expect(reused.json()).toEqual({ error: "This Idempotency-Key was already used for a different request" });
    }
    expect(await snapshot(t.app.db)).toEqual(before);
    // The same request still replays its first answer.
    const again = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 }, withKey("one-sale"));
    expect(again.body).toBe(first.body);
  });

  it("applies concurrent duplicates once", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const s = await signIn("streamer");
    const base = await baseUrl();
    {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${base}/api/products/${p.id}/quantity`, {
            method: "PUT",
            headers: { cookie: s.cookie, "content-type": "application/json", "idempotency-key": "same-tap" },
            body: JSON.stringify({ quantity_change: -1 }),
          }).then(async (r) => ({ status: r.status, body: await r.text() })),
        ),
      );
      expect(answers.every((a) => a.status === 200 && a.body === answers[0]?.body)).toBe(true);
      expect(await quantityOf(p.id)).toBe(9);
      expect((await productAuditOf(p.id)).filter((a) => a.action === "QUANTITY_SUBTRACT")).toHaveLength(1);
    }
  });

  it.each([["x".repeat(101)], ["bad\u0007key"], ["caf\u00e9"]])("answers 400 for the key %j", async (key) => {
    const p = await manager.create();
    const res = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: 1 }, withKey(key));
    expect(res.statusCode).toBe(400);
    expect(await quantityOf(p.id)).toBe(10);
  });
});

describe("permissions per role", () => {
  it.each([
    ["super_admin", true],
    ["manager", true],
    ["inventory", true],
    ["streamer", false],
  ] as const)("%s: may manage products = %s, may always read and change quantity", async (role, manages) => {
    const p = await manager.create({ quantity_on_hand: 5 });
    const { api } = await signIn(role);
    const allowed = (status: number, ok: number) => (manages ? expect(status).toBe(ok) : expect(status).toBe(403));
    expect((await api.get("/api/products")).statusCode).toBe(200);
    expect((await api.get(`/api/products/barcode/${p.barcode}`)).statusCode).toBe(200);
    expect((await api.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 })).statusCode).toBe(200);
    allowed((await api.post("/api/products", { barcode: newBarcode(), product_name: "x", vendor: "y" })).statusCode, 201);
    allowed(
      (await api.put(`/api/products/${p.id}`, { barcode: p.barcode, product_name: "Renamed", vendor: p.vendor, quantity_on_hand: 4 }))
        .statusCode,
      200,
    );
    allowed((await api.put(`/api/products/${p.id}/status`, { is_active: false })).statusCode, 200);
    allowed((await api.post("/api/products/import", { products: [] })).statusCode, 200);
    allowed((await api.post("/api/products/import?dry_run=true", { products: [] })).statusCode, 200);
  });
});

describe("idempotency key retention", () => {
  it("keeps keys for 24 hours and deletes older ones", async () => {
    const now = new Date();
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    await t.app.db.insert(idempotencyKeys).values([
      { userId: streamerId, key: "old-key", statusCode: 200, body: {}, createdAt: hoursAgo(25) },
      { userId: streamerId, key: "recent-key", statusCode: 200, body: {}, createdAt: hoursAgo(23) },
    ]);
    await deleteExpiredIdempotencyKeys(t.app.db, now);
    const keys = (await t.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, streamerId))).map((k) => k.key);
    expect(keys).toContain("recent-key");
    expect(keys).not.toContain("old-key");
  });
});
