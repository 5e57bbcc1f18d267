import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LowStockEvent } from "../../../contract/events.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import type {
  ReorderReport,
  SalesReport,
  ShowsReport,
  SlowMoversReport,
  StockValueReport,
  TopSellersReport,
} from "../../../contract/reports.js";
import type { ShowSummary } from "../../../contract/shows.js";
import type { CreatedToken } from "../../../contract/tokens.js";
import { products, quantityAudit, stockValueDaily } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { type AuditRow, addDays, expectedSales, localDay, replayStockValue, soldUnits } from "../../test/report-replay.js";
import { TestSocket } from "../../test/socket-client.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

type Api = ReturnType<typeof caller>;

/** A streamer's sale of one unit at `at` (ISO), written straight into the quantity audit as a tap writes it. */
async function insertStreamerSale(t: TestApp, p: Product, at: string) {
  await t.database.db.insert(quantityAudit).values({
    productId: p.id,
    productName: p.product_name,
    barcode: p.barcode,
    quantityChange: -1,
    quantityBefore: 2,
    quantityAfter: 1,
    transactionType: "adjustment",
    notes: "Streamer adjustment",
    userName: "someone",
    timestamp: new Date(at),
    // apply_quantity_change() records the product's price as the unit price of a tap.
    unitPrice: p.price,
  });
}

async function signIn(t: TestApp, role: Role) {
  const { user, cookie } = await signedIn(t.app, role);
  return { user, cookie, api: caller(t.app, cookie) };
}

async function auditRows(t: TestApp): Promise<AuditRow[]> {
  return t.database.db
    .select({
      id: quantityAudit.id,
      productId: quantityAudit.productId,
      quantityChange: quantityAudit.quantityChange,
      quantityAfter: quantityAudit.quantityAfter,
      transactionType: quantityAudit.transactionType,
      notes: quantityAudit.notes,
      showId: quantityAudit.showId,
      price: quantityAudit.unitPrice,
      timestamp: quantityAudit.timestamp,
    })
    .from(quantityAudit)
    .orderBy(asc(quantityAudit.id));
}

const tap = (api: Api, p: Product, change: number, extra: Record<string, unknown> = {}) =>
  api.put(`/api/products/${p.id}/quantity`, { quantity_change: change, reason: "Streamer adjustment", ...extra });

describe("sales: the series equals the sums of the quantity audit (America/New_York, over the March DST change)", () => {
  const TZ = "America/New_York";
  let t: TestApp;
  let manager: Api;
  let catalogue: Product[];
  let showId: number;

  beforeAll(async () => {
    t = await createTestApp({ TIMEZONE: TZ });
    manager = (await signIn(t, "manager")).api;
    catalogue = [
      await manager.create({ price: 1250, cost: 700 }),
      await manager.create({ price: 99 }),
      await manager.create({ price: null }),
    ];
    const streamer = await signIn(t, "streamer");
    const started = await streamer.api.post("/api/shows", { name: "Break" });
    showId = started.json<ShowSummary>().show.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  // Clocks went from 02:00 EST to 03:00 EDT on 2026-03-08 (07:00 UTC). Local midnights around it, to land on.
  const MIDNIGHTS = [
    "2026-03-07T05:00:00Z",
    "2026-03-08T05:00:00Z",
    "2026-03-09T04:00:00Z",
    "2026-03-10T04:00:00Z",
    "2026-03-02T05:00:00Z",
  ];
  const START = Date.parse("2026-01-28T00:00:00Z");
  // How far the roll-ups reach: nothing, into February, mid-March, all of March, later.
  const THROUGH = ["2000-01-01", "2026-02-27", "2026-02-28", "2026-03-05", "2026-03-31", "2026-04-30"];
  const END = Date.parse("2026-03-14T00:00:00Z");
  const KINDS = [
    { type: "adjustment", notes: "Streamer adjustment", show: false, sign: -1 },
    { type: "adjustment", notes: "Streamer adjustment", show: true, sign: -1 },
    { type: "adjustment", notes: "Streamer adjustment", show: false, sign: 1 },
    { type: "adjustment", notes: "Undo", show: false, sign: 1 },
    { type: "adjustment", notes: "Undo", show: true, sign: 1 },
    { type: "adjustment", notes: "Undo", show: true, sign: -1 },
    { type: "adjustment", notes: "Manual adjustment", show: false, sign: -1 },
    { type: "edit", notes: "Product edited", show: false, sign: -1 },
    { type: "import", notes: null, show: false, sign: -1 },
  ] as const;
  const instant = fc.oneof(
    fc.integer({ min: START, max: END - 1 }).map((ms) => new Date(ms)),
    fc.tuple(fc.constantFrom(...MIDNIGHTS), fc.integer({ min: -2, max: 1 })).map(([m, s]) => new Date(Date.parse(m) + s * 1000)),
  );
  const change = fc.record({
    product: fc.nat({ max: 2 }),
    kind: fc.nat({ max: KINDS.length - 1 }),
    amount: fc.integer({ min: 1, max: 5 }),
    at: instant,
    // A price written with the row (a sale at an older price), else the product's own (the trigger fills it).
    price: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  });

  it("per day, week and month, with sources and the previous range's totals", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 40 }),
        fc.constantFrom("day", "week", "month"),
        fc.constantFrom(...THROUGH),
        async (changes, by, through) => {
          await t.database.db.delete(quantityAudit);
          if (changes.length > 0) {
            await t.database.db.insert(quantityAudit).values(
              changes.map((c) => {
                const kind = KINDS[c.kind] as (typeof KINDS)[number];
                const p = catalogue[c.product] as Product;
                return {
                  productId: p.id,
                  productName: p.product_name,
                  barcode: p.barcode,
                  quantityChange: kind.sign * c.amount,
                  quantityBefore: 10,
                  quantityAfter: 10 + kind.sign * c.amount,
                  transactionType: kind.type,
                  notes: kind.notes,
                  userName: "someone",
                  timestamp: c.at,
                  showId: kind.show ? showId : null,
                  ...(c.price === undefined ? {} : { unitPrice: c.price }),
                };
              }),
            );
          }
          // Days up to `through` are summed from the roll-ups, later ones from the audit itself.
          await t.app.reportsJob.runOnce({ rebuildSales: true, salesThrough: through });
          const rows = await auditRows(t);
          const from = "2026-03-03";
          const to = "2026-03-12";
          const res = await manager.get(`/api/reports/sales?from=${from}&to=${to}&by=${by}`);
          expect(res.statusCode).toBe(200);
          const report = res.json<SalesReport>();
          const want = expectedSales(rows, { from, to, by, tz: TZ });
          const previous = expectedSales(rows, { from: "2026-02-21", to: "2026-03-02", by: "day", tz: TZ });
          expect(report).toMatchObject({ timezone: TZ, from, to, by, totals: want.totals });
          expect(report.previous).toEqual({ from: "2026-02-21", to: "2026-03-02", ...previous.totals });
          for (const bucket of report.buckets) {
            const sources: Record<string, { units: number; revenue: number }> = Object.fromEntries(
              want.buckets.get(bucket.start) ?? new Map(),
            );
            expect(bucket.sources, bucket.start).toEqual(sources);
            expect(bucket.units).toBe(Object.values(sources).reduce((n, s) => n + s.units, 0));
            expect(bucket.revenue).toBe(Object.values(sources).reduce((n, s) => n + s.revenue, 0));
          }
          // Every bucket of the range is there, in order, and none outside it.
          expect([...want.buckets.keys()].every((k) => report.buckets.some((b) => b.start === k))).toBe(true);
          expect(report.buckets.map((b) => b.start)).toEqual([...report.buckets.map((b) => b.start)].sort());

          // Top sellers of February and March: whole months from the monthly roll-up when they are rolled up.
          const top = (await manager.get("/api/reports/top-sellers?from=2026-02-01&to=2026-03-31&limit=10")).json<TopSellersReport>();
          const perProduct = new Map<number, { units: number; revenue: number }>();
          for (const row of rows) {
            const units = soldUnits(row);
            const day = localDay(row.timestamp, TZ);
            if (units === 0 || day < "2026-02-01" || day > "2026-03-31" || row.productId === null) continue;
            const sum = perProduct.get(row.productId) ?? { units: 0, revenue: 0 };
            sum.units += units;
            sum.revenue += units * (row.price ?? 0);
            perProduct.set(row.productId, sum);
          }
          const wantTop = [...perProduct.entries()].filter(([, v]) => v.units > 0).map(([id, v]) => [id, v.units, v.revenue]);
          expect(top.products.map((p) => [p.product_id, p.units, p.revenue]).sort()).toEqual(wantTop.sort());
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it("a day across the change: a sale at 23:30 EST on the 7th and one at 00:30 EDT on the 9th fall on their local days", async () => {
    await t.database.db.delete(quantityAudit);
    const p = catalogue[0] as Product;
    for (const at of ["2026-03-08T04:30:00Z", "2026-03-09T04:30:00Z", "2026-03-09T03:59:59Z"]) {
      await insertStreamerSale(t, p, at);
    }
    await t.app.reportsJob.runOnce({ rebuildSales: true });
    const report = (await manager.get("/api/reports/sales?from=2026-03-07&to=2026-03-09")).json<SalesReport>();
    expect(report.buckets.map((b) => [b.start, b.units, b.revenue])).toEqual([
      ["2026-03-07", 1, 1250],
      ["2026-03-08", 1, 1250],
      ["2026-03-09", 1, 1250],
    ]);
    expect(report.sources).toEqual(["stream"]);
  });

  it("refuses bad ranges (400) and streamers (403); the OpenAPI document describes every report with its query", async () => {
    expect((await manager.get("/api/reports/sales?from=2026-03-09&to=2026-03-01")).statusCode).toBe(400);
    expect((await manager.get("/api/reports/sales?from=2026-02-30&to=2026-03-01")).statusCode).toBe(400);
    expect((await manager.get("/api/reports/sales?from=2020-01-01&to=2026-03-01")).statusCode).toBe(400);
    expect((await manager.get("/api/reports/sales?from=2026-03-01&to=2026-03-02&by=year")).statusCode).toBe(400);
    const streamer = await signIn(t, "streamer");
    expect((await streamer.api.get("/api/reports/sales?from=2026-03-01&to=2026-03-02")).statusCode).toBe(403);
    expect((await streamer.api.get("/api/reports/reorder")).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/reports/reorder" })).statusCode).toBe(401);
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json<{
      paths: Record<string, { get: { parameters?: Array<{ name: string }> } }>;
    }>();
    for (const path of ["sales", "stock-value", "slow-movers", "reorder", "top-sellers", "shows"])
      expect(doc.paths).toHaveProperty([`/api/reports/${path}`]);
    expect(doc.paths["/api/reports/sales"]?.get.parameters?.map((p) => p.name).sort()).toEqual(["by", "from", "to"]);
  });
});

describe("reports with an API token", () => {
  let t: TestApp;
  let manager: Api;
  beforeAll(async () => {
    t = await createTestApp();
    manager = (await signIn(t, "manager")).api;
  });
  afterAll(async () => {
    await t?.close();
  });

  const REPORTS = [
    "/api/reports/sales?from=2026-03-01&to=2026-03-07",
    "/api/reports/top-sellers?from=2026-03-01&to=2026-03-07",
    "/api/reports/stock-value?from=2026-03-01&to=2026-03-07",
    "/api/reports/slow-movers?days=30",
    "/api/reports/reorder",
    "/api/reports/shows?from=2026-03-01&to=2026-03-07",
  ];
  const secretFor = async (name: string, scopes: string[]) => {
    const res = await manager.post("/api/tokens", { name, scopes });
    expect(res.statusCode).toBe(201);
    return res.json<CreatedToken>().secret;
  };
  const get = (secret: string, url: string) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${secret}` } });

  it("reports:read opens every report; an audit:read token keeps the audit only (403 on reports)", async () => {
    const reader = await secretFor("Reports reader", ["reports:read"]);
    const auditor = await secretFor("Audit reader", ["audit:read"]);
    for (const url of REPORTS) {
      const read = await get(reader, url);
      expect(read.statusCode, `${url}: ${read.body}`).toBe(200);
      const refused = await get(auditor, url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error).toBe("This API token lacks the reports:read scope");
    }
    expect((await get(auditor, "/api/audit/quantity")).statusCode).toBe(200);
    expect((await get(reader, "/api/audit/quantity")).statusCode).toBe(403);
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json<{
      paths: Record<string, { get: { security: unknown; description: string } }>;
    }>();
    expect(doc.paths["/api/reports/sales"]?.get.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(doc.paths["/api/reports/reorder"]?.get.description).toContain("`reports:read`");
  });
});

describe("sales in a zone 5:45 ahead of UTC (Asia/Kathmandu): days start at 18:15 UTC", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TIMEZONE: "Asia/Kathmandu" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a sale a second before local midnight and one at midnight fall on their own days", async () => {
    const manager = (await signIn(t, "manager")).api;
    const p = await manager.create({ price: 100 });
    for (const at of ["2026-05-01T18:14:59Z", "2026-05-01T18:15:00Z", "2026-05-01T18:29:59Z"]) {
      await insertStreamerSale(t, p, at);
    }
    // Once from the audit (nothing rolled up), once from the roll-up: the same days.
    await t.app.reportsJob.runOnce({ rebuildSales: true, salesThrough: "2000-01-01" });
    const fromAudit = (await manager.get("/api/reports/sales?from=2026-05-01&to=2026-05-02")).json<SalesReport>();
    await t.app.reportsJob.runOnce({ rebuildSales: true });
    const report = (await manager.get("/api/reports/sales?from=2026-05-01&to=2026-05-02")).json<SalesReport>();
    expect(fromAudit.buckets).toEqual(report.buckets);
    expect(report.buckets.map((b) => [b.start, b.units])).toEqual([
      ["2026-05-01", 1],
      ["2026-05-02", 2],
    ]);
  });
});

describe("slow movers, top sellers, shows compared and reorder on hand-made cases", () => {
  let t: TestApp;
  let manager: Api;
  let inventory: Api;
  let streamer: Awaited<ReturnType<typeof signIn>>;

  beforeAll(async () => {
    t = await createTestApp({ TIMEZONE: "Europe/Berlin" });
    manager = (await signIn(t, "manager")).api;
    inventory = (await signIn(t, "inventory")).api;
    streamer = await signIn(t, "streamer");
  });
  afterAll(async () => {
    await t?.close();
  });

  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
  async function backdate(p: Product, createdDaysAgo: number, saleDaysAgo?: number) {
    await t.database.db
      .update(products)
      .set({ createdAt: daysAgo(createdDaysAgo) })
      .where(eq(products.id, p.id));
    if (saleDaysAgo !== undefined) {
      expect((await tap(streamer.api, p, -1)).statusCode).toBe(200);
      await t.database.db.execute(sql`update quantity_audit set timestamp = ${daysAgo(saleDaysAgo)} where product_id = ${p.id}`);
    }
  }

  it("slow movers: stock, no sale in 30/60/90 days, existed before; value at price and at cost (null for inventory users)", async () => {
    const vendor = `Slow ${Date.now()}`;
    const make = (name: string, qty: number, extra: Record<string, unknown> = {}) =>
      manager.create({ product_name: name, vendor, quantity_on_hand: qty, price: 1000, cost: 400, ...extra });
    const soldLately = await make("Sold 10 days ago", 5);
    await backdate(soldLately, 200, 10);
    const neverSold = await make("Never sold", 3);
    await backdate(neverSold, 100);
    const sold40 = await make("Sold 40 days ago", 2, { price: 5000, cost: null });
    await backdate(sold40, 200, 40);
    const sold75 = await make("Sold 75 days ago", 2);
    await backdate(sold75, 200, 75);
    const empty = await make("No stock", 0);
    await backdate(empty, 200);
    const fresh = await make("Added yesterday", 4);
    await backdate(fresh, 1);
    const disabled = await make("Disabled", 4);
    await backdate(disabled, 200);
    expect((await manager.put(`/api/products/${disabled.id}/status`, { is_active: false })).statusCode).toBe(200);

    const names = (r: SlowMoversReport) => r.products.filter((p) => p.vendor === vendor).map((p) => p.product_name);
    const res30 = await manager.get("/api/reports/slow-movers?days=30");
    expect(res30.statusCode, res30.body).toBe(200);
    const r30 = res30.json<SlowMoversReport>();
    expect(names(r30)).toEqual(["Sold 40 days ago", "Never sold", "Sold 75 days ago"]);
    const row40 = r30.products.find((p) => p.product_id === sold40.id);
    expect(row40).toMatchObject({ quantity_on_hand: 1, value_at_price: 5000, value_at_cost: 0 });
    expect(row40?.last_sale_at).not.toBeNull();
    expect(r30.products.find((p) => p.product_id === neverSold.id)).toMatchObject({
      last_sale_at: null,
      value_at_price: 3000,
      value_at_cost: 1200,
    });
    expect(r30.totals).toMatchObject({ products: 3, units: 5, value_at_price: 9000, value_at_cost: 1600 });
    expect(names((await manager.get("/api/reports/slow-movers?days=60")).json())).toEqual(["Never sold", "Sold 75 days ago"]);
    expect(names((await manager.get("/api/reports/slow-movers?days=90")).json())).toEqual(["Never sold"]);
    expect((await manager.get("/api/reports/slow-movers?days=45")).statusCode).toBe(400);

    const forInventory = (await inventory.get("/api/reports/slow-movers?days=30")).json<SlowMoversReport>();
    expect(names(forInventory)).toEqual(names(r30));
    expect(forInventory.products.every((p) => p.value_at_cost === null)).toBe(true);
    expect(forInventory.totals.value_at_cost).toBeNull();
    expect(forInventory.totals.value_at_price).toBe(9000);
  });

  it("top sellers and shows compared: units, revenue and duration per show, an undo taking a sale back", async () => {
    const a = await manager.create({ price: 300, quantity_on_hand: 20 });
    const b = await manager.create({ price: 1000, quantity_on_hand: 20 });
    const { show } = (await streamer.api.post("/api/shows", { name: "Friday break" })).json<ShowSummary>();
    for (const [p, change, reason] of [
      [a, -1, "Streamer adjustment"],
      [a, -1, "Streamer adjustment"],
      [a, 1, "Undo"],
      [b, -2, "Streamer adjustment"],
      [b, 3, "Streamer adjustment"],
    ] as const) {
      expect((await tap(streamer.api, p, change, { reason, show_id: show.id })).statusCode).toBe(200);
    }
    // Outside the show: a streamer sale counts as `stream`; the inventory screen's change is no sale.
    expect((await tap(streamer.api, a, -1)).statusCode).toBe(200);
    expect((await tap(manager, a, -4, { reason: "Manual adjustment" })).statusCode).toBe(200);
    await streamer.api.post(`/api/shows/${show.id}/end`);
    await t.database.db.execute(sql`update shows set started_at = ended_at - interval '90 minutes' where id = ${show.id}`);

    const today = localDay(new Date(), "Europe/Berlin");
    // From yesterday: the show was moved to start 90 minutes before it ended, maybe before midnight.
    const showsRes = await manager.get(`/api/reports/shows?from=${addDays(today, -1)}&to=${today}`);
    expect(showsRes.statusCode, showsRes.body).toBe(200);
    const shows = showsRes.json<ShowsReport>();
    expect(shows.shows.find((s) => s.id === show.id)).toMatchObject({
      name: "Friday break",
      units: 3,
      revenue: 2300,
      duration_seconds: 5400,
    });
    const sales = (await manager.get(`/api/reports/sales?from=${today}&to=${today}`)).json<SalesReport>();
    expect(sales.buckets[0]?.sources).toMatchObject({ show: { units: 3, revenue: 2300 }, stream: { units: 1, revenue: 300 } });

    const top = (await manager.get(`/api/reports/top-sellers?from=${today}&to=${today}`)).json<TopSellersReport>();
    expect(
      top.products.filter((p) => p.product_id === a.id || p.product_id === b.id).map((p) => [p.product_id, p.units, p.revenue]),
    ).toEqual([
      [b.id, 2, 2000],
      [a.id, 2, 600],
    ]);
  });

  it("orders: each line a sale of source order:<channel> at its unit price (else the product's price); a cancelled order counts nothing", async () => {
    const a = await manager.create({ price: 400, quantity_on_hand: 20 });
    const b = await manager.create({ price: 700, quantity_on_hand: 20 });
    const channel = `web${Date.now()}`;
    const order = async (externalId: string, lines: object[]) => {
      const res = await manager.post("/api/orders", { channel, external_id: externalId, lines });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ order: { id: number } }>().order;
    };
    await order("1", [
      { product_id: a.id, quantity: 2, unit_price: 999 },
      { product_id: b.id, quantity: 1 },
    ]);
    const cancelled = await order("2", [{ product_id: b.id, quantity: 5, unit_price: 100 }]);
    expect((await manager.post(`/api/orders/${cancelled.id}/cancel`, {})).statusCode).toBe(200);

    const today = localDay(new Date(), "Europe/Berlin");
    // Rolled up through yesterday: orders are read from the audit whatever the roll-up holds.
    await t.app.reportsJob.runOnce({ rebuildSales: true });
    const sales = (await manager.get(`/api/reports/sales?from=${today}&to=${today}`)).json<SalesReport>();
    expect(sales.buckets[0]?.sources[`order:${channel}`]).toEqual({ units: 3, revenue: 2 * 999 + 700 });
    const top = (await manager.get(`/api/reports/top-sellers?from=${today}&to=${today}`)).json<TopSellersReport>();
    expect(
      top.products.filter((p) => p.product_id === a.id || p.product_id === b.id).map((p) => [p.product_id, p.units, p.revenue]),
    ).toEqual([
      [a.id, 2, 1998],
      [b.id, 1, 700],
    ]);
  });

  it("reorder: active products at or under their point, by vendor, cost only for managers; reorder_point validated, imported and edited", async () => {
    const vendor = (n: string) => `${n} ${Date.now()}`;
    const [panini, topps] = [vendor("Panini"), vendor("Topps")];
    const at = await manager.create({ product_name: "B at point", vendor: panini, quantity_on_hand: 3, reorder_point: 3, cost: 250 });
    const under = await manager.create({ product_name: "A under point", vendor: panini, quantity_on_hand: 0, reorder_point: 2 });
    await manager.create({ product_name: "Above point", vendor: panini, quantity_on_hand: 4, reorder_point: 3 });
    await manager.create({ product_name: "No point", vendor: topps, quantity_on_hand: 0 });
    const off = await manager.create({ product_name: "Disabled", vendor: topps, quantity_on_hand: 0, reorder_point: 5 });
    await manager.put(`/api/products/${off.id}/status`, { is_active: false });
    expect(at.reorder_point).toBe(3);

    const mine = (r: ReorderReport) => r.vendors.filter((v) => v.vendor === panini || v.vendor === topps);
    const list = (await manager.get("/api/reports/reorder")).json<ReorderReport>();
    expect(mine(list)).toEqual([
      {
        vendor: panini,
        products: [
          expect.objectContaining({ product_id: under.id, quantity_on_hand: 0, reorder_point: 2, suggested_quantity: 3, cost: null }),
          expect.objectContaining({ product_id: at.id, quantity_on_hand: 3, reorder_point: 3, suggested_quantity: 1, cost: 250 }),
        ],
      },
    ]);
    const forInventory = (await inventory.get("/api/reports/reorder")).json<ReorderReport>();
    expect(mine(forInventory)[0]?.products.map((p) => p.cost)).toEqual([null, null]);

    expect(
      (await manager.post("/api/products", { barcode: "RP-NEG-1", product_name: "x", vendor: "y", reorder_point: -1 })).statusCode,
    ).toBe(400);
    expect((await manager.put(`/api/products/${at.id}`, { reorder_point: 1.5 })).statusCode).toBe(400);
    const cleared = await manager.put(`/api/products/${at.id}`, { reorder_point: null });
    expect(cleared.json<Product>().reorder_point).toBeNull();
    const imported = await manager.post("/api/products/import", {
      products: [{ barcode: `RPI${Date.now()}`, product_name: "Imported", vendor: topps, quantity_on_hand: "1", reorder_point: "2" }],
    });
    expect(imported.json()).toMatchObject({ created: 1, errors: [] });
    const bad = await manager.post("/api/products/import", {
      products: [{ barcode: `RPJ${Date.now()}`, product_name: "Bad", vendor: topps, reorder_point: "-3" }],
    });
    expect(bad.json().errors).toEqual(["Row 2: Reorder point must be a whole number, 0 or more"]);
    const after = (await manager.get("/api/reports/reorder")).json<ReorderReport>();
    expect(mine(after).map((v) => [v.vendor, v.products.map((p) => p.product_name)])).toEqual([
      [panini, ["A under point"]],
      [topps, ["Imported"]],
    ]);
  });
});

describe("low stock: a change that takes a product to or under its point tells managers, live", () => {
  let t: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  async function online(cookie: string) {
    const token = (await t.app.inject({ method: "GET", url: "/api/auth/socket-token", headers: { cookie } })).json<{ token: string }>()
      .token;
    const s = await new TestSocket(url).connected();
    sockets.push(s);
    s.authenticate(token);
    await s.next("authenticated");
    return s;
  }

  it("a sale crossing the point reaches managers and super admins, not inventory users or streamers; once, not again below", async () => {
    const manager = await signIn(t, "manager");
    const admin = await signIn(t, "super_admin");
    const inventory = await signIn(t, "inventory");
    const streamer = await signIn(t, "streamer");
    const [m, a, i, s] = [
      await online(manager.cookie),
      await online(admin.cookie),
      await online(inventory.cookie),
      await online(streamer.cookie),
    ];
    const p = await manager.api.create({ quantity_on_hand: 4, reorder_point: 2 });

    expect((await tap(streamer.api, p, -1)).statusCode).toBe(200); // 3: above
    expect((await tap(streamer.api, p, -1)).statusCode).toBe(200); // 2: at the point
    const event = await m.next<LowStockEvent>("low_stock");
    expect(event).toMatchObject({ product: { id: p.id, quantity_on_hand: 2, reorder_point: 2 }, username: streamer.user.username });
    await a.next<LowStockEvent>("low_stock", (e) => e.product.id === p.id);
    expect((await tap(streamer.api, p, -1)).statusCode).toBe(200); // 1: still under, no new event
    await m.next("inventory_update", (e: { data: { quantity_on_hand?: number } }) => e.data.quantity_on_hand === 1);
    // An edit raising the point above the stock is a crossing too.
    const q = await manager.api.create({ quantity_on_hand: 5, reorder_point: 1 });
    expect((await manager.api.put(`/api/products/${q.id}`, { reorder_point: 5 })).statusCode).toBe(200);
    await m.next<LowStockEvent>("low_stock", (e) => e.product.id === q.id);
    await i.next("inventory_update", (e: { data: { id?: number } }) => e.data.id === q.id);
    await s.next("inventory_update", (e: { data: { id?: number } }) => e.data.id === q.id);

    expect(m.received.filter((r) => r.event === "low_stock").map((r) => (r.payload as LowStockEvent).product.id)).toEqual([p.id, q.id]);
    expect(i.names).not.toContain("low_stock");
    expect(s.names).not.toContain("low_stock");
  });
});

describe("stock value: days filled in at start-up equal a replay of the audit (Europe/Berlin, over the March DST change)", () => {
  const TZ = "Europe/Berlin";
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TIMEZONE: TZ });
    // The start-up run first: run during the test, it would fill the days the test takes away.
    await t.app.reportsJob.startup;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("every day from the first change to yesterday, at today's prices; a missing day is filled in again; today is the stock now", async () => {
    const manager = await signIn(t, "manager");
    const inventory = await signIn(t, "inventory");
    const a = await manager.api.create({ quantity_on_hand: 10, price: 500, cost: 200 });
    const b = await manager.api.create({ quantity_on_hand: 3, price: null, cost: 100 });
    for (const [p, change] of [
      [a, -2],
      [b, 4],
      [a, -1],
      [b, -3],
      [a, 5],
      [a, -7],
    ] as const) {
      expect((await tap(manager.api, p, change)).statusCode).toBe(200);
    }
    expect((await manager.api.put(`/api/products/${b.id}`, { quantity_on_hand: 9 })).statusCode).toBe(200);
    // History spread over days around 2026-03-29 (clocks went 02:00 CET -> 03:00 CEST), in the order it was made.
    const starts = [
      "2026-03-26T22:59:59Z",
      "2026-03-27T23:00:00Z",
      "2026-03-28T12:00:00Z",
      "2026-03-28T22:30:00Z",
      "2026-03-29T21:59:59Z",
      "2026-03-29T22:00:00Z",
      "2026-04-02T10:00:00Z",
      "2026-04-02T11:00:00Z",
      "2026-04-03T10:00:00Z",
    ];
    const rows = await auditRows(t);
    expect(rows).toHaveLength(starts.length);
    for (const [k, row] of rows.entries()) {
      await t.database.db
        .update(quantityAudit)
        .set({ timestamp: new Date(starts[k] as string) })
        .where(eq(quantityAudit.id, row.id));
    }
    await t.database.db.delete(stockValueDaily);

    const written = (await t.app.reportsJob.runOnce()).stockDays;
    const today = localDay(new Date(), TZ);
    const yesterday = addDays(today, -1);
    const prices = new Map((await t.database.db.select().from(products)).map((p) => [p.id, { price: p.price, cost: p.cost }]));
    const want = replayStockValue(await auditRows(t), prices, { first: "2026-03-26", last: yesterday, tz: TZ });
    expect(written).toBe(want.length);
    expect(want.slice(0, 9).map((d) => d.units)).toEqual([10, 10, 15, 14, 11, 11, 11, 9, 14]);

    const report = (await manager.api.get(`/api/reports/stock-value?from=2026-03-20&to=${today}`)).json<StockValueReport>();
    expect(report.days.slice(0, -1)).toEqual(want);
    expect(report.days.at(-1)).toEqual({ day: today, units: 5 + 9, at_price: 5 * 500, at_cost: 5 * 200 + 9 * 100 });

    // A missing day is filled in again, equal to the replay; the others are left as they were.
    await t.database.db.delete(stockValueDaily).where(eq(stockValueDaily.day, "2026-03-29"));
    expect((await t.app.reportsJob.runOnce()).stockDays).toBe(1);
    expect((await manager.api.get(`/api/reports/stock-value?from=2026-03-20&to=${yesterday}`)).json<StockValueReport>().days).toEqual(want);
    expect((await t.app.reportsJob.runOnce()).stockDays).toBe(0);

    const forInventory = (await inventory.api.get(`/api/reports/stock-value?from=2026-03-26&to=2026-03-30`)).json<StockValueReport>();
    expect(forInventory.days.map((d) => d.at_cost)).toEqual([null, null, null, null, null]);
    expect(forInventory.days.map((d) => d.at_price)).toEqual(want.slice(0, 5).map((d) => d.at_price));
  });

  it("days counted in another time zone are counted again in this one", async () => {
    await t.database.db.update(stockValueDaily).set({ timezone: "UTC" });
    const before = await t.database.db.select().from(stockValueDaily);
    expect((await t.app.reportsJob.runOnce()).stockDays).toBe(before.length);
    expect((await t.database.db.select().from(stockValueDaily)).every((r) => r.timezone === TZ)).toBe(true);
  });
});
