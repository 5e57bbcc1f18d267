import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Location, ShrinkageAnswer, StockTake } from "../../../contract/stock-takes.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** A finished stock take's report (CSV) and the shrinkage report over the approvals (issue 41). */

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

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("a stock take's report and the shrinkage it adds to", () => {
  it("keeps the finished session's lines as CSV and sums its approved differences at cost per period", async () => {
    const locRes = await inventory.post("/api/locations", { name: newBarcode("Case ") });
    const loc = locRes.json<Location>();
    const short = await manager.create({ product_name: "Short, card", quantity_on_hand: 3, cost: 200, price: 500, location: loc.name });
    const extra = await manager.create({ product_name: "=Extra card", quantity_on_hand: 1, cost: 150, location: loc.name });
    const gone = await manager.create({ product_name: "Gone card", quantity_on_hand: 2, cost: 75, price: 100, location: loc.name });
    const started = await inventory.post("/api/stock-takes", { scope: { location_ids: [loc.id] } });
    const session = started.json<{ stock_take: StockTake }>().stock_take;
    const scans = [
      { client_scan_id: randomUUID(), barcode: short.barcode, location_id: loc.id },
      { client_scan_id: randomUUID(), barcode: extra.barcode, location_id: loc.id, quantity: 2 },
      { client_scan_id: randomUUID(), barcode: "UNKNOWN-1", location_id: loc.id },
    ];
    expect((await inventory.post(`/api/stock-takes/${session.id}/scans`, { scans })).statusCode).toBe(200);
    const approved = await manager.post(`/api/stock-takes/${session.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);

    const csv = await inventory.get(`/api/stock-takes/${session.id}/report.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(
      `attachment; filename="stock-take-${session.number}-${session.started_at.slice(0, 10)}.csv"`,
    );
    const lines = csv.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      "product_id,barcode,name,location,found_in,status,expected,counted,difference,value_at_cost,value_at_price,applied",
    );
    expect(lines).toContain(`${short.id},${short.barcode},"Short, card",${loc.name},${loc.name},counted,3,1,-2,-4.00,-10.00,-2`);
    expect(lines).toContain(`${extra.id},${extra.barcode},'=Extra card,${loc.name},${loc.name},counted,1,2,1,1.50,,1`);
    expect(lines).toContain(`${gone.id},${gone.barcode},Gone card,${loc.name},,missing,2,0,-2,-1.50,-2.00,-2`);
    expect(lines).toContain(`,UNKNOWN-1,,,${loc.name},unknown,0,1,1,,,`);
    expect(lines.at(-1)).toBe("");
    expect((await streamer.get(`/api/stock-takes/${session.id}/report.csv`)).statusCode).toBe(403);
    expect((await inventory.get("/api/stock-takes/999999/report.csv")).statusCode).toBe(404);

    // Shrinkage: 2 + 2 missing (at cost 400 + 150), 1 extra (150): -3 units, -400 at cost.
    const range = `from=${day(-1)}&to=${day(1)}`;
    const res = await manager.get(`/api/reports/shrinkage?${range}&by=day`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<ShrinkageAnswer>();
    expect(report).toMatchObject({ from: day(-1), to: day(1), by: "day" });
    expect(report.totals).toEqual({
      stock_takes: 1,
      difference: -3,
      missing: 4,
      extra: 1,
      value_at_cost: -400,
      missing_at_cost: 550,
      extra_at_cost: 150,
    });
    expect(report.rows).toHaveLength(1);

    const weekly = (await manager.get(`/api/reports/shrinkage?${range}&by=week`)).json<ShrinkageAnswer>();
    for (const row of weekly.rows) expect(new Date(`${row.period}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(weekly.totals.difference).toBe(-3);

    // Inventory users read it without money at cost; streamers not at all; a range before it is empty.
    const seen = (await inventory.get(`/api/reports/shrinkage?${range}`)).json<ShrinkageAnswer>();
    expect(seen.totals).toMatchObject({ difference: -3, value_at_cost: null, missing_at_cost: null });
    expect((await streamer.get(`/api/reports/shrinkage?${range}`)).statusCode).toBe(403);
    expect((await manager.get(`/api/reports/shrinkage?from=${day(1)}&to=${day(-1)}`)).statusCode).toBe(400);
    const before = (await manager.get(`/api/reports/shrinkage?from=${day(-30)}&to=${day(-20)}`)).json<ShrinkageAnswer>();
    expect(before).toMatchObject({ rows: [], totals: { difference: 0, stock_takes: 0 } });
  });
});

describe("a review whose values pass the safe integers", () => {
  it("answers them (a product of the largest stock and cost missing), never a 500", async () => {
    const loc = (await inventory.post("/api/locations", { name: newBarcode("Vault ") })).json<Location>();
    const vault = await manager.create({
      product_name: "Vault card",
      quantity_on_hand: 999_999_999,
      cost: 1_000_000_000,
      price: 1_000_000_000,
      location: loc.name,
    });
    const session = (await inventory.post("/api/stock-takes", { scope: { location_ids: [loc.id] } })).json<{ stock_take: StockTake }>()
      .stock_take;
    const review = await manager.get(`/api/stock-takes/${session.id}/review`);
    expect(review.statusCode, review.body).toBe(200);
    const line = review
      .json<{ lines: Array<{ product_id: number; value_at_cost: number }> }>()
      .lines.find((l) => l.product_id === vault.id);
    expect(line?.value_at_cost).toBe(-999_999_999 * 1_000_000_000);
  });
});
