import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products.js";
import { MESSAGES } from "../../../contract/rules.js";
import { productAudit, quantityAudit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** PUT /api/products/{id}: edits of any subset of fields that merge with changes made since their version. */

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

const auditOf = (id: number) => t.app.db.select().from(productAudit).where(eq(productAudit.productId, id)).orderBy(productAudit.id);
const quantityAuditOf = (id: number) =>
  t.app.db.select().from(quantityAudit).where(eq(quantityAudit.productId, id)).orderBy(quantityAudit.id);
const edit = (p: Product, body: Record<string, unknown>) => manager.put(`/api/products/${p.id}`, body);
const sell = (p: Product) => streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 });

describe("merging edits", () => {
  it("applies a stale edit of vendor over two sales, keeping the stock the sales left", async () => {
    const p = await manager.create({ quantity_on_hand: 10, vendor: "Topps" });
    const opened = p.version;
    await sell(p);
    await sell(p);
    const rec = recordEvents(t.app);
    const res = await edit(p, { vendor: "Panini", version: opened });
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ vendor: "Panini", quantity_on_hand: 8, version: opened + 3 });
    const audits = await auditOf(p.id);
    expect(audits.map((a) => [a.action, a.productVersion])).toEqual([
      ["CREATE", 1],
      ["QUANTITY_SUBTRACT", 2],
      ["QUANTITY_SUBTRACT", 3],
      ["UPDATE", 4],
    ]);
    expect(audits[3]).toMatchObject({ changedFields: ["vendor"], oldValues: { vendor: "Topps" }, newValues: { vendor: "Panini" } });
    expect((await quantityAuditOf(p.id)).map((q) => q.transactionType)).toEqual(["create", "adjustment", "adjustment"]);
    expect(rec.events).toMatchObject([{ type: "product_updated", data: { product: res.json() } }]);
    expect(rec.events[0]?.data).not.toHaveProperty("quantity_change");
  });

  it("refuses a stale edit of a field someone else changed (409 naming it) and changes nothing", async () => {
    const p = await manager.create();
    expect((await inventory.put(`/api/products/${p.id}`, { product_name: "Renamed by inventory" })).statusCode).toBe(200);
    const current = (await manager.get(`/api/products/barcode/${p.barcode}`)).json<Product>();
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await edit(p, { product_name: "Renamed by manager", vendor: "Leaf", version: p.version });
    rec.stop();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: MESSAGES.versionConflict, product: current, fields: ["product_name"] });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);
  });

  it("refuses a typed stock after sales (409 naming quantity_on_hand), and a stale name after disabling applies", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    await sell(p);
    const typed = await edit(p, { quantity_on_hand: 20, version: p.version });
    expect(typed.statusCode).toBe(409);
    expect(typed.json().fields).toEqual(["quantity_on_hand"]);
    // The spec's full body with the opened version: its unchanged stock differs from the current one now.
    const full = await edit(p, { ...pickEditable(p), vendor: "Leaf", version: p.version });
    expect(full.json().fields).toEqual(["quantity_on_hand"]);

    await manager.put(`/api/products/${p.id}/status`, { is_active: false });
    const renamed = await edit(p, { product_name: "Still editable", version: p.version });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ product_name: "Still editable", is_active: false, quantity_on_hand: 9 });
  });

  it("never conflicts on a sent field that already has the sent value", async () => {
    const p = await manager.create({ vendor: "Topps" });
    await inventory.put(`/api/products/${p.id}`, { vendor: "Leaf" });
    const res = await edit(p, { vendor: "Leaf", product_name: "Both agree on Leaf", version: p.version });
    expect(res.statusCode).toBe(200);
    expect((await auditOf(p.id)).at(-1)).toMatchObject({ changedFields: ["product_name"], productVersion: 3 });
  });

  it("counts every field as changed when the versions since are not all recorded (history from before revisions)", async () => {
    const p = await manager.create();
    await sell(p);
    await t.app.db.update(productAudit).set({ productVersion: null }).where(eq(productAudit.productId, p.id));
    const res = await edit(p, { vendor: "Leaf", version: p.version });
    expect(res.statusCode).toBe(409);
    expect(res.json().fields).toEqual(["vendor"]);
  });
});

describe("edit bodies", () => {
  it("accepts any non-empty subset of the fields without version; left-out fields do not change", async () => {
    const p = await manager.create({ release_year: 2020, quantity_on_hand: 4 });
    const res = await edit(p, { release_year: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...p, release_year: null, version: 2, revision: expect.any(Number), updated_at: expect.any(String) });
    const stock = await edit(p, { quantity_on_hand: 6 });
    expect(stock.json()).toMatchObject({ quantity_on_hand: 6, release_year: null, version: 3 });
    expect((await quantityAuditOf(p.id)).at(-1)).toMatchObject({ transactionType: "edit", quantityBefore: 4, quantityAfter: 6 });
    expect((await auditOf(p.id)).map((a) => a.changedFields)).toEqual([
      ["barcode", "product_name", "vendor", "release_year", "quantity_on_hand", "is_active"],
      ["release_year"],
      ["quantity_on_hand"],
    ]);
  });

  it("keeps the spec's full body working, barcode change included", async () => {
    const p = await manager.create();
    const barcode = newBarcode();
    const res = await edit(p, { ...pickEditable(p), barcode, product_name: "Full body" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ barcode, product_name: "Full body", version: 2 });
    expect((await auditOf(p.id)).at(-1)?.changedFields).toEqual(["barcode", "product_name"]);
  });

  it("answers 400 for an edit that names no field", async () => {
    const p = await manager.create();
    for (const body of [{}, { version: 1 }, { is_active: false }]) {
      const res = await edit(p, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("Nothing to update");
    }
    expect((await t.app.inject({ method: "PUT", url: `/api/products/${p.id}`, headers: { cookie: "" } })).statusCode).toBe(401);
    const bad = await edit(p, { vendor: "  " });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MESSAGES.productRequired);
  });
});

describe("the API documentation", () => {
  it("states the merge rule of edits and the since parameter of the list", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(spec.paths["/api/products/{id}"].put.description).toContain("when none of the sent fields changed since that version");
    expect(spec.paths["/api/products"].get.parameters.map((p: { name: string }) => p.name)).toContain("since");
  });
});

function pickEditable(p: Product) {
  return {
    barcode: p.barcode,
    product_name: p.product_name,
    vendor: p.vendor,
    release_year: p.release_year,
    quantity_on_hand: p.quantity_on_hand,
  };
}
