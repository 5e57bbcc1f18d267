import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate } from "../../../contract/events.js";
import type { StockTakeReview } from "../../../contract/stock-takes.js";
import { APPROVAL_BATCH_SIZE } from "../../../contract/stock-takes.js";
import { products, quantityAudit, stockTakeLines, stockTakes } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { countedLocation as counted } from "../../test/stock-takes.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** Approving a big stock take in short transactions (issue 41): each product once, taps answered between batches. */

type Api = ReturnType<typeof caller>;
let t: TestApp;
let manager: Api;
let inventory: Api;
let streamer: Api;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

/** Thousands of products approved in batches: minutes when the whole suite runs beside it on two cores. */
const SLOW = { timeout: 180_000 };

/** `n` products in a new location (stock 2, cost 100, price 250), the first `scanned` counted 3 each; a counting session of it. */
const countedLocation = (n: number, scanned: number) => counted(t.app.db, inventory, n, scanned);

/** Each product's approved changes (tagged with the session) and its stock. */
async function outcome(sessionId: number, ids: number[]) {
  const tagged = await t.app.db
    .select({ productId: quantityAudit.productId, change: quantityAudit.quantityChange })
    .from(quantityAudit)
    .where(eq(quantityAudit.stockTakeId, sessionId));
  const stock = await t.app.db.execute(sql`
    select id, quantity_on_hand from products where id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::int)`);
  return {
    changesPerProduct: new Map(ids.map((id) => [id, tagged.filter((a) => a.productId === id).map((a) => a.change)])),
    stock: new Map(rowsOf<{ id: number; quantity_on_hand: number }>(stock).map((r) => [r.id, r.quantity_on_hand])),
  };
}

describe("an approval of a few thousand products", () => {
  it("applies each product's difference exactly once, in batches, and a tap sent during it is answered before it ends", SLOW, async () => {
    const n = 3_000;
    const scanned = 400;
    const { session, ids } = await countedLocation(n, scanned);
    const elsewhere = await manager.create({ quantity_on_hand: 50 });

    // When the first batch's stock changes are heard (after its commit), a streamer taps another product.
    const order: string[] = [];
    let tap: Promise<unknown> | undefined;
    let changesHeard = 0;
    const listener = (e: InventoryUpdate) => {
      const id = e.data.id;
      if (e.type !== "quantity_changed" || id === undefined || id === elsewhere.id || !ids.includes(id)) return;
      changesHeard += 1;
      tap ??= streamer.put(`/api/products/${elsewhere.id}/quantity`, { quantity_change: -1, reason: "Sold" }).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        order.push("tap");
      });
    };
    t.app.events.on("inventory_update", listener);
    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, {}).then((res) => {
      order.push("approval");
      return res;
    });
    t.app.events.off("inventory_update", listener);
    await tap;

    expect(approved.statusCode, approved.body).toBe(200);
    const review = approved.json<StockTakeReview>();
    expect(review.stock_take.status).toBe("approved");
    expect(review.refused_product_ids).toBeUndefined();
    expect(review.totals).toMatchObject({ lines: n, difference: scanned - 2 * (n - scanned) });
    expect(review.lines.every((l) => l.applied === l.difference)).toBe(true);
    // The tap was answered while the approval's batches were still running.
    expect(order).toEqual(["tap", "approval"]);
    expect(changesHeard).toBe(n);

    const { changesPerProduct, stock } = await outcome(session.id, ids);
    ids.forEach((id, i) => {
      expect(changesPerProduct.get(id), `product ${id}`).toEqual([i < scanned ? 1 : -2]);
      expect(stock.get(id), `product ${id}`).toBe(i < scanned ? 3 : 0);
    });
    expect(n / APPROVAL_BATCH_SIZE).toBeGreaterThan(10);
    expect((await manager.post(`/api/stock-takes/${session.id}/approve`, {})).statusCode).toBe(409);
  });

  it("applies once when it is sent twice at once", SLOW, async () => {
    const n = 1_500;
    const { session, ids } = await countedLocation(n, 100);
    const other = caller(t.app, (await signedIn(t.app, "manager")).cookie);
    const [x, y] = await Promise.all([
      manager.post(`/api/stock-takes/${session.id}/approve`, {}),
      other.post(`/api/stock-takes/${session.id}/approve`, {}),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    const { changesPerProduct } = await outcome(session.id, ids);
    expect([...changesPerProduct.values()].every((changes) => changes.length === 1)).toBe(true);
  });

  it(
    "cut off after it began, is resumed by approving again: each line once, a product refused then reported and the others applied",
    SLOW,
    async () => {
      const n = 700;
      const { session, ids } = await countedLocation(n, 700);
      // As a crash leaves it once its lease has expired: the session approving, its lines pending, the first batch committed.
      const first = ids.slice(0, APPROVAL_BATCH_SIZE);
      await t.app.db
        .update(stockTakes)
        .set({
          status: "approving",
          approvedBy: "earlier",
          approvalLeaseHolder: "crashed",
          approvalLeaseUntil: new Date(Date.now() - 1_000),
        })
        .where(eq(stockTakes.id, session.id));
      await t.app.db.update(stockTakeLines).set({ approval: "pending" }).where(eq(stockTakeLines.stockTakeId, session.id));
      for (const id of first) {
        const res = await manager.put(`/api/products/${id}/quantity`, { quantity_change: 1, reason: `Stock take #${session.number}` });
        expect(res.statusCode, res.body).toBe(200);
      }
      await t.app.db.execute(sql`
      update quantity_audit set stock_take_id = ${session.id}
       where product_id in (select json_array_elements_text(${JSON.stringify(first)}::json)::int) and notes = ${`Stock take #${session.number}`}`);
      await t.app.db.execute(sql`
      update stock_take_lines set approval = 'applied', applied = 1, approved_expected = 2
       where stock_take_id = ${session.id} and product_id in (select json_array_elements_text(${JSON.stringify(first)}::json)::int)`);
      // Meanwhile one product not yet applied was disabled: it cannot take its change.
      const disabled = ids[n - 1] as number;
      await t.app.db.update(products).set({ isActive: false }).where(eq(products.id, disabled));
      expect((await inventory.post(`/api/stock-takes/${session.id}/cancel`, {})).statusCode).toBe(409);

      const resumed = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
      expect(resumed.statusCode, resumed.body).toBe(200);
      const review = resumed.json<StockTakeReview>();
      expect(review.stock_take.status).toBe("approved");
      expect(review.refused_product_ids).toEqual([disabled]);
      expect(review.lines.find((l) => l.product_id === disabled)).toMatchObject({ applied: null, difference: 1 });

      const { changesPerProduct, stock } = await outcome(session.id, ids);
      for (const id of ids) {
        expect(changesPerProduct.get(id), `product ${id}`).toEqual(id === disabled ? [] : [1]);
        expect(stock.get(id), `product ${id}`).toBe(id === disabled ? 2 : 3);
      }
      const pending = await t.app.db
        .select()
        .from(stockTakeLines)
        .where(and(eq(stockTakeLines.stockTakeId, session.id), eq(stockTakeLines.approval, "pending")));
      expect(pending).toHaveLength(0);
    },
  );

  it("is refused with the products that cannot take their change before anything changes", async () => {
    const { session, ids } = await countedLocation(600, 600);
    const disabled = ids[300] as number;
    await t.app.db.update(products).set({ isActive: false }).where(eq(products.id, disabled));
    const res = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ product_ids: number[] }>().product_ids).toEqual([disabled]);
    const { changesPerProduct } = await outcome(session.id, ids);
    expect([...changesPerProduct.values()].every((changes) => changes.length === 0)).toBe(true);
    const others = ids.filter((id) => id !== disabled);
    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, { product_ids: others });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await outcome(session.id, ids)).stock.get(ids[0] as number)).toBe(3);
  });
});
