import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { type Location, SCANS_PER_REQUEST_MAX, type ScanAnswer, type StockTake, type StockTakeReview } from "../../contract/stock-takes.js";
import type { Db } from "../db/client.js";
import { rowsOf } from "../db/sql.js";
import { type caller, newBarcode } from "./product-calls.js";

/**
 * A stock take to approve (issue 41's approval and lease tests): `n` products of stock 2 (cost
 * 100, price 250) inserted in SQL in a new location, a session of that location started by the
 * inventory user `inventory`, the first `scanned` of them counted 3 each (one extra each) and the
 * rest never scanned (missing: 2 each). The session is still counting.
 */
export async function countedLocation(
  db: Db,
  inventory: ReturnType<typeof caller>,
  n: number,
  scanned = n,
): Promise<{ loc: Location; session: StockTake; ids: number[] }> {
  const res = await inventory.post("/api/locations", { name: newBarcode("Wall ") });
  expect(res.statusCode, res.body).toBe(201);
  const loc = res.json<Location>();
  const prefix = newBarcode("ST");
  const inserted = await db.execute(sql`
    insert into products (barcode, product_name, vendor, quantity_on_hand, cost, price, location, revision)
    select ${prefix} || '-' || g, 'Binder card ' || g, 'Topps', 2, 100, 250, ${loc.name}, take_revision()
      from generate_series(1, ${n}) g
    returning id, barcode`);
  const rows = rowsOf<{ id: number; barcode: string }>(inserted).sort((a, b) => a.id - b.id);
  const started = await inventory.post("/api/stock-takes", { scope: { location_ids: [loc.id] } });
  expect(started.statusCode, started.body).toBe(201);
  const session = started.json<{ stock_take: StockTake }>().stock_take;
  const scans = rows.slice(0, scanned).map((r) => ({ client_scan_id: randomUUID(), barcode: r.barcode, quantity: 3, location_id: loc.id }));
  for (let i = 0; i < scans.length; i += SCANS_PER_REQUEST_MAX) {
    const sent = await inventory.post(`/api/stock-takes/${session.id}/scans`, { scans: scans.slice(i, i + SCANS_PER_REQUEST_MAX) });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return { loc, session, ids: rows.map((r) => r.id) };
}

/** One scan sent by `api` from the device "Till phone" (a new client_scan_id unless given); its answer. */
export async function scanOnce(
  api: ReturnType<typeof caller>,
  session: number,
  barcode: string,
  opts: { quantity?: number; location_id?: number; client_scan_id?: string } = {},
): Promise<ScanAnswer> {
  const res = await api.post(`/api/stock-takes/${session}/scans`, {
    device: "Till phone",
    scans: [{ client_scan_id: opts.client_scan_id ?? randomUUID(), barcode, ...opts }],
  });
  expect(res.statusCode, res.body).toBe(200);
  const [answer] = res.json<{ scans: ScanAnswer[] }>().scans;
  if (!answer) throw new Error("no answer");
  return answer;
}

/** The session's review as `api` reads it. */
export async function reviewOf(api: ReturnType<typeof caller>, session: number): Promise<StockTakeReview> {
  const res = await api.get(`/api/stock-takes/${session}/review`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StockTakeReview>();
}
