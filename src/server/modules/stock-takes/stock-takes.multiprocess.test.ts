import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Location, StockTake, StockTakeReview } from "../../../contract/stock-takes.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../../test/server-processes.js";

/**
 * Two real server processes on one PostgreSQL database (issue 41): an approval sent to both at
 * once is applied once, the other answered 409 from the session's lease in the database alone
 * (no process knows what the other runs).
 */

let cluster: ServerProcesses;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_stock_takes");
  servers = await Promise.all([cluster.start(), cluster.start()]);
}, 180_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

describe("a stock take approved through two server processes at once", () => {
  it("exactly one answers 200 and the other 409; each product's stock changed once", { timeout: 180_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const cookieB = await login(b, ADMIN.username, ADMIN.password);
    const loc = await api<Location>(a, cookieA, "POST", "/api/locations", { name: "Binder wall" });
    expect(loc.status).toBe(201);
    const n = 600;
    const rows = await cluster.query<{ id: number; barcode: string }>(
      `insert into products (barcode, product_name, vendor, quantity_on_hand, cost, price, location, revision)
       select 'MP-' || g, 'Wall card ' || g, 'Topps', 2, 100, 250, $1, take_revision() from generate_series(1, $2::int) g
       returning id, barcode`,
      [loc.body.name, n],
    );
    const started = await api<{ stock_take: StockTake }>(a, cookieA, "POST", "/api/stock-takes", {
      scope: { location_ids: [loc.body.id] },
    });
    expect(started.status).toBe(201);
    const id = started.body.stock_take.id;
    const scans = rows.map((r) => ({ client_scan_id: randomUUID(), barcode: r.barcode, quantity: 3, location_id: loc.body.id }));
    for (let i = 0; i < scans.length; i += 500) {
      const sent = await api(b, cookieB, "POST", `/api/stock-takes/${id}/scans`, { scans: scans.slice(i, i + 500) });
      expect(sent.status).toBe(200);
    }

    const [x, y] = await Promise.all([
      api<StockTakeReview | { error: string }>(a, cookieA, "POST", `/api/stock-takes/${id}/approve`, {}),
      api<StockTakeReview | { error: string }>(b, cookieB, "POST", `/api/stock-takes/${id}/approve`, {}),
    ]);
    expect([x.status, y.status].sort(), JSON.stringify([x.body, y.body]).slice(0, 500)).toEqual([200, 409]);
    // Both were sent while neither had finished: the second found the first's lease.
    expect((x.status === 409 ? x : y).body).toEqual({ error: "This stock take is being approved" });
    const approved = (x.status === 200 ? x : y).body as StockTakeReview;
    expect(approved.stock_take.status).toBe("approved");
    expect(approved.lines.every((l) => l.applied === 1)).toBe(true);

    const changes = await cluster.query<{ product_id: number; n: string }>(
      "select product_id, count(*) as n from quantity_audit where stock_take_id = $1 group by product_id",
      [id],
    );
    expect(changes).toHaveLength(n);
    expect(changes.every((c) => Number(c.n) === 1)).toBe(true);
    const stock = await cluster.query<{ quantity_on_hand: number }>("select quantity_on_hand from products where barcode like 'MP-%'");
    expect(stock.every((s) => s.quantity_on_hand === 3)).toBe(true);
    const [session] = await cluster.query<{ approval_lease_until: Date | null }>(
      "select approval_lease_until from stock_takes where id = $1",
      [id],
    );
    expect(session?.approval_lease_until).toBeNull();
  });
});
