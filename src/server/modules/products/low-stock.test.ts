import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LowStockEvent } from "../../../contract/events.js";
import type { ImportResult } from "../../../contract/import.js";
import type { ImportUndoResult } from "../../../contract/imports.js";
import type { Product } from "../../../contract/products.js";
import { atOrUnderReorderPoint, reachedReorderPoint } from "../../../contract/report-rules.js";
import { webhookDeliveries } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { TestSocket } from "../../test/socket-client.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { Receiver } from "../../test/webhook-receiver.js";

/**
 * The reorder rule is one rule: whoever changes a product (a tap, an order line, an edit of the
 * stock or of the point, an import, an undo), reaching the reorder point raises both the managers'
 * live `low_stock` toast and the `product.low_stock` webhook, and anything else raises neither.
 */

let t: TestApp;
let receiver: Receiver;
let manager: ReturnType<typeof caller>;
let managerUsername: string;
let managerSocket: TestSocket;
let webhookId: number;

beforeAll(async () => {
  receiver = await Receiver.start();
  t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"] });
  const m = await signedIn(t.app, "manager");
  manager = caller(t.app, m.cookie);
  managerUsername = m.user.username;
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const token = (await manager.get("/api/auth/socket-token")).json<{ token: string }>().token;
  managerSocket = await new TestSocket(url).connected();
  managerSocket.authenticate(token);
  await managerSocket.next("authenticated");
  const hook = await manager.post("/api/webhooks", { url: receiver.url, events: ["product.low_stock"], description: "reorders" });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookId = hook.json<{ webhook: { id: number } }>().webhook.id;
});
afterAll(async () => {
  managerSocket?.close();
  await t?.close();
  await receiver?.close();
});

/** The product.low_stock deliveries written for a product: the stock each carries. */
async function webhooksOf(productId: number): Promise<number[]> {
  const rows = await t.app.db
    .select({ data: webhookDeliveries.data })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.productId, productId),
        eq(webhookDeliveries.type, "product.low_stock"),
      ),
    )
    .orderBy(asc(webhookDeliveries.id));
  return rows.map((r) => (r.data as { product: Product }).product.quantity_on_hand);
}

/** The low_stock toasts the manager's socket got for a product: the stock each carries. */
const toastsOf = (productId: number) =>
  managerSocket.received
    .filter((r) => r.event === "low_stock" && (r.payload as LowStockEvent).product.id === productId)
    .map((r) => (r.payload as LowStockEvent).product.quantity_on_hand);

/**
 * Both signals for the product, once each, carrying `quantity`: the toast (waited for) and the
 * webhook's delivery, written in the change's transaction. Then a marker change that reaches
 * nothing proves no second toast was on its way.
 */
async function expectBoth(product: Product, quantity: number, by = managerUsername) {
  const toast = await managerSocket.next<LowStockEvent>("low_stock", (e) => e.product.id === product.id);
  expect(toast).toMatchObject({ product: { id: product.id, quantity_on_hand: quantity }, username: by });
  expect(await webhooksOf(product.id)).toEqual([quantity]);
  await expectNoMore(product, 1);
}

/** Neither signal beyond `count` for the product: checked after an unrelated product's change has reached the socket. */
async function expectNoMore(product: Product, count = 0) {
  const marker = await manager.create({ quantity_on_hand: 1 });
  await managerSocket.next("inventory_update", (e: { data: { id?: number } }) => e.data.id === marker.id);
  expect(toastsOf(product.id)).toHaveLength(count);
  expect(await webhooksOf(product.id)).toHaveLength(count);
}

const tap = (p: Product, change: number) => manager.put(`/api/products/${p.id}/quantity`, { quantity_change: change, reason: "Sold" });

async function importRows(rows: unknown[]): Promise<ImportResult> {
  const res = await manager.post("/api/products/import", { products: rows });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("the reorder rule", () => {
  it("the SQL functions (migration 0020) and the contract's mirror give the same answer on every case", async () => {
    const quantities = [0, 1, 2, 3, 5];
    const points = [null, 0, 2, 3];
    const levels = quantities.flatMap((quantity) => points.map((reorderPoint) => ({ quantity, reorderPoint })));
    const cases = levels.flatMap((before) =>
      levels.map((after) => ({ bq: before.quantity, bp: before.reorderPoint, aq: after.quantity, ap: after.reorderPoint })),
    );
    const rows = rowsOf<{ at: boolean; reached: boolean }>(
      await t.app.db.execute(sql`
        select at_or_under_reorder_point(c.aq, c.ap) as at, reached_reorder_point(c.bq, c.bp, c.aq, c.ap) as reached
        from json_to_recordset(${JSON.stringify(cases.map((c, n) => ({ ...c, n })))}::json) as c(n int, bq int, bp int, aq int, ap int)
        order by c.n`),
    );
    expect(rows).toHaveLength(cases.length);
    const mirror = cases.map((c) => ({
      at: atOrUnderReorderPoint(c.aq, c.ap),
      reached: reachedReorderPoint({ quantity: c.bq, reorderPoint: c.bp }, { quantity: c.aq, reorderPoint: c.ap }),
    }));
    expect(rows).toEqual(mirror);
    // The table holds both answers: falls to the point, raised points, and changes that stay put.
    expect(mirror.filter((m) => m.reached).length).toBeGreaterThan(20);
    expect(mirror.filter((m) => m.at && !m.reached).length).toBeGreaterThan(20);
  });
});

describe("reaching the reorder point raises the toast and the webhook alike, whoever writes", () => {
  it("a tap: once, at the point; not again below it; again after rising above and falling back", async () => {
    const p = await manager.create({ quantity_on_hand: 4, reorder_point: 2 });
    expect((await tap(p, -1)).statusCode).toBe(200); // 3: above
    expect((await tap(p, -1)).statusCode).toBe(200); // 2: at the point
    await expectBoth(p, 2);
    expect((await tap(p, -1)).statusCode).toBe(200); // 1: still under
    await expectNoMore(p, 1);
    expect((await tap(p, 5)).statusCode).toBe(200); // 6
    expect((await tap(p, -4)).statusCode).toBe(200); // 2 again
    await managerSocket.next<LowStockEvent>("low_stock", (e) => e.product.id === p.id && toastsOf(p.id).length === 2);
    expect(toastsOf(p.id)).toEqual([2, 2]);
    expect(await webhooksOf(p.id)).toEqual([2, 2]);
  });

  it("an order line taking the product to its point", async () => {
    const p = await manager.create({ quantity_on_hand: 5, reorder_point: 3 });
    const placed = await manager.post("/api/orders", {
      channel: "web",
      external_id: `low-${p.id}`,
      lines: [{ product_id: p.id, quantity: 2, unit_price: 450 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    await expectBoth(p, 3);
  });

  it("an order whose two lines of one product cross the point once", async () => {
    const p = await manager.create({ quantity_on_hand: 6, reorder_point: 4 });
    const placed = await manager.post("/api/orders", {
      channel: "web",
      external_id: `low-two-${p.id}`,
      lines: [
        { product_id: p.id, quantity: 2 },
        { product_id: p.id, quantity: 1 },
      ],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    await expectBoth(p, 4);
  });

  it("an edit raising the reorder point over the stock", async () => {
    const p = await manager.create({ quantity_on_hand: 5, reorder_point: 1 });
    expect((await manager.put(`/api/products/${p.id}`, { reorder_point: 6 })).statusCode).toBe(200);
    await expectBoth(p, 5);
  });

  it("an edit setting a reorder point on a product that had none, at its stock", async () => {
    const p = await manager.create({ quantity_on_hand: 2 });
    expect((await manager.put(`/api/products/${p.id}`, { reorder_point: 2 })).statusCode).toBe(200);
    await expectBoth(p, 2);
  });

  it("an edit lowering the quantity to the point", async () => {
    const p = await manager.create({ quantity_on_hand: 5, reorder_point: 2 });
    expect((await manager.put(`/api/products/${p.id}`, { quantity_on_hand: 1 })).statusCode).toBe(200);
    await expectBoth(p, 1);
  });

  it("an import row lowering the stock, and one raising the point", async () => {
    const a = await manager.create({ quantity_on_hand: 6, reorder_point: 3 });
    const b = await manager.create({ quantity_on_hand: 4, reorder_point: 1 });
    const result = await importRows([
      { barcode: a.barcode, product_name: a.product_name, vendor: a.vendor, quantity_on_hand: "2", reorder_point: "3" },
      { barcode: b.barcode, product_name: b.product_name, vendor: b.vendor, quantity_on_hand: "4", reorder_point: "4" },
    ]);
    expect(result).toMatchObject({ updated: 2, errors: [] });
    await expectBoth(a, 2);
    await expectBoth(b, 4);
  });

  it("an undo putting back the stock an import had raised", async () => {
    const p = await manager.create({ quantity_on_hand: 2, reorder_point: 3 });
    const result = await importRows([{ barcode: p.barcode, product_name: p.product_name, vendor: p.vendor, quantity_on_hand: "10" }]);
    expect(result).toMatchObject({ updated: 1, errors: [] });
    const undo = await manager.post(`/api/imports/${result.import_id}/undo`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json<ImportUndoResult>()).toMatchObject({ reverted: 1, not_reverted: [] });
    await expectBoth(p, 2);
  });

  it("neither for changes that do not reach it: a new product under its point, a rise, a change staying under, other fields", async () => {
    const created = await manager.create({ quantity_on_hand: 1, reorder_point: 3 });
    const above = await manager.create({ quantity_on_hand: 8, reorder_point: 3 });
    expect((await tap(created, -1)).statusCode).toBe(200); // 0: was under already
    expect((await tap(above, -2)).statusCode).toBe(200); // 6: above
    expect((await manager.put(`/api/products/${created.id}`, { reorder_point: 2 })).statusCode).toBe(200); // still under
    expect((await manager.put(`/api/products/${above.id}`, { product_name: "Renamed", reorder_point: 5 })).statusCode).toBe(200); // 6 > 5
    expect((await manager.put(`/api/products/${above.id}/status`, { is_active: false })).statusCode).toBe(200);
    await importRows([{ barcode: above.barcode, product_name: "Renamed", vendor: above.vendor, quantity_on_hand: "7" }]);
    await expectNoMore(created);
    await expectNoMore(above);
  });
});
