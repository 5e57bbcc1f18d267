import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { desc, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { InventoryUpdate } from "../../../contract/events.js";
import type { Product, ProductsSince } from "../../../contract/products.js";
import { buildApp } from "../../app.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { testConfig } from "../../test/config.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents } from "../../test/product-calls.js";
import { createTestApp, createTestDatabase, type TestApp } from "../../test/test-app.js";
import { CATALOGUE_CACHE_DEFAULTS } from "./catalogue-cache.js";

/** Revisions, catch-up, ETag and compression of the catalogue, and events carrying the committed product. */

let t: TestApp;
let manager: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let managerCookie: string;
let streamerCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  const m = await signedIn(t.app, "manager");
  manager = caller(t.app, m.cookie);
  managerCookie = m.cookie;
  const s = await signedIn(t.app, "streamer");
  streamer = caller(t.app, s.cookie);
  streamerCookie = s.cookie;
});
afterAll(async () => {
  await t?.close();
});

const list = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: "/api/products", headers: { cookie: managerCookie, ...headers } });
const since = async (revision: number) => {
  const res = await manager.get(`/api/products?since=${revision}`);
  expect(res.statusCode).toBe(200);
  return res.json<ProductsSince>();
};
const catalogueRevision = async () => Number((await list()).headers["x-catalogue-revision"]);
const byBarcode = async (barcode: string) => (await manager.get(`/api/products/barcode/${encodeURIComponent(barcode)}`)).json<Product>();
const tap = (p: Product, change: number, headers: Record<string, string> = {}) =>
  streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: change }, headers);

async function scalar(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf<{ value: string | number }>(await db.execute(query));
  return Number(row?.value);
}

describe("revisions", () => {
  it("give every change a new, higher revision, also across 50 concurrent taps on 5 products", async () => {
    const items = await Promise.all(Array.from({ length: 5 }, () => manager.create({ quantity_on_hand: 0 })));
    const before = await catalogueRevision();
    expect(before).toBeGreaterThanOrEqual(Math.max(...items.map((p) => p.revision)));
    const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${base}/api/products/${items[i % 5]?.id}/quantity`, {
          method: "PUT",
          headers: { cookie: streamerCookie, "content-type": "application/json" },
          body: JSON.stringify({ quantity_change: 1 }),
        }).then(async (r) => ({ status: r.status, product: (await r.json()) as Product })),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const revisions = answers.map((a) => a.product.revision);
    expect(new Set(revisions).size).toBe(50);
    expect(Math.min(...revisions)).toBeGreaterThan(before);
    for (const p of items) {
      const taps = answers.map((a) => a.product).filter((x) => x.id === p.id);
      // Stock rose by one per commit: in commit order, the revisions rise too.
      const inCommitOrder = taps.sort((a, b) => a.quantity_on_hand - b.quantity_on_hand).map((x) => x.revision);
      expect(inCommitOrder).toEqual([...inCommitOrder].sort((a, b) => a - b));
      const current = await byBarcode(p.barcode);
      expect(current).toMatchObject({ quantity_on_hand: 10, revision: Math.max(...inCommitOrder) });
    }
    const changed = await since(before);
    expect(changed.products.map((p) => p.id).sort()).toEqual(items.map((p) => p.id).sort());
    expect(changed.revision).toBeGreaterThanOrEqual(Math.max(...revisions));
  });

  it("are answered by ?since=R: exactly the products changed after R, disabled ones too, in revision order", async () => {
    const [a, b, c] = [await manager.create(), await manager.create(), await manager.create()];
    const r = await catalogueRevision();
    expect(r).toBeGreaterThanOrEqual(c?.revision ?? 0);
    await tap(a as Product, -1);
    await manager.put(`/api/products/${b?.id}/status`, { is_active: false });
    const answer = await since(r);
    expect(answer.products).toEqual([await byBarcode(a?.barcode as string), await byBarcode(b?.barcode as string)]);
    expect(answer.products[1]?.is_active).toBe(false);
    expect(answer.revision).toBe(answer.products[1]?.revision);
    expect(await since(answer.revision)).toEqual({ revision: answer.revision, products: [] });
    // The list carries the revisions too.
    const all = (await list()).json<Product[]>();
    expect(all.find((p) => p.id === c?.id)).toEqual(c);
  });

  it("refuses a since that is not a non-negative integer", async () => {
    for (const bad of ["-1", "abc", "1.5"]) expect((await manager.get(`/api/products?since=${bad}`)).statusCode).toBe(400);
  });
});

describe("the first page (?limit=N)", () => {
  it("is the list's first N products, as the list begins now, with the revision and no ETag", async () => {
    await manager.create();
    const newest = await manager.create();
    await tap(newest, 1);
    const whole = await list();
    const res = await manager.get("/api/products?limit=3");
    expect(res.statusCode).toBe(200);
    expect(res.json<Product[]>()).toEqual(whole.json<Product[]>().slice(0, 3));
    expect(res.json<Product[]>()[0]).toMatchObject({ id: newest.id, quantity_on_hand: newest.quantity_on_hand + 1 });
    expect(res.headers["x-catalogue-revision"]).toBe(whole.headers["x-catalogue-revision"]);
    expect(res.headers.etag).toBeUndefined();
    // A product made since shows at once, in front.
    const made = await manager.create();
    expect((await manager.get("/api/products?limit=1")).json<Product[]>()).toEqual([made]);
  });

  it("refuses a limit out of range or with since, and leaves the plain list as it was", async () => {
    for (const bad of ["0", "-1", "1001", "abc", "1.5"]) expect((await manager.get(`/api/products?limit=${bad}`)).statusCode).toBe(400);
    expect((await manager.get("/api/products?limit=5&since=0")).statusCode).toBe(400);
    const whole = (await list()).json<Product[]>();
    expect((await manager.get(`/api/products?limit=1000`)).json<Product[]>()).toEqual(whole.slice(0, 1000));
  });
});

describe("GET /api/products caching", () => {
  it("answers 304 to a matching If-None-Match, and 200 with a new ETag after a change", async () => {
    const p = await manager.create();
    const first = await list();
    const etag = first.headers.etag as string;
    expect(etag).toBe(`"${first.headers["x-catalogue-revision"]}"`);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    const same = await list({ "if-none-match": etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe("");
    expect(same.headers.etag).toBe(etag);
    expect((await list({ "if-none-match": `W/${etag}, "0"` })).statusCode).toBe(304);

    await tap(p, 1);
    const changed = await list({ "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<Product[]>().find((x) => x.id === p.id)?.quantity_on_hand).toBe(p.quantity_on_hand + 1);
  });

  it("stays newest first as products are added and changed after the list was made (made from memory)", async () => {
    const older = await manager.create();
    await list();
    const a = await manager.create();
    const b = await manager.create();
    await tap(older, 1);
    const all = (await list()).json<Product[]>().map((p) => p.id);
    expect(all.slice(0, 2)).toEqual([b.id, a.id]);
    expect(all.indexOf(older.id)).toBeGreaterThan(1);
    const fromDb = (await t.app.db.select({ id: products.id }).from(products).orderBy(desc(products.createdAt), desc(products.id))).map(
      (r) => r.id,
    );
    expect(all).toEqual(fromDb);
    expect((await list()).json<Product[]>().find((p) => p.id === older.id)?.quantity_on_hand).toBe(older.quantity_on_hand + 1);
  });

  it("goes out brotli or gzip compressed when the client accepts it, and decodes to the same list", async () => {
    for (let i = 0; i < 10; i++) await manager.create();
    const plain = await list();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await list({ "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(plain.json());
    expect(Number(br.headers["content-length"])).toBe(br.rawPayload.length);
    const gzip = await list({ "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(plain.json());
    expect(Number(gzip.headers["content-length"])).toBe(gzip.rawPayload.length);
    expect(Number(plain.headers["content-length"])).toBe(plain.rawPayload.length);
    // Small answers are sent as they are.
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: managerCookie, "accept-encoding": "br" } });
    expect(me.headers["content-encoding"]).toBeUndefined();
  });
});

describe("the shared snapshot (?catch_up=true)", () => {
  const catchUpList = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: "/api/products?catch_up=true", headers: { cookie: managerCookie, ...headers } });

  it("may be a few changes behind, names the revision it is complete up to, and ?since= from there brings the rest", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    // The spec's plain list is built for its caller; the snapshot it made is the one shared next.
    const exact = await list();
    const first = await catchUpList();
    const firstRevision = Number(first.headers["x-catalogue-revision"]);
    expect(firstRevision).toBe(Number(exact.headers["x-catalogue-revision"]));
    expect(first.json<Product[]>().find((x) => x.id === p.id)?.quantity_on_hand).toBe(10);

    await tap(p, -1);
    await tap(p, -1);
    // The same snapshot, still complete up to its own revision...
    const shared = await catchUpList();
    expect(Number(shared.headers["x-catalogue-revision"])).toBe(firstRevision);
    expect(shared.body).toBe(first.body);
    // ...and the catch-up from that revision brings the two sales.
    const rest = await since(firstRevision);
    expect(rest.products.find((x) => x.id === p.id)?.quantity_on_hand).toBe(8);
    // The spec's plain list is never behind.
    expect((await list()).json<Product[]>().find((x) => x.id === p.id)?.quantity_on_hand).toBe(8);
  });

  it("goes out in its own brotli or gzip copy, the same list once decoded", async () => {
    const plain = await catchUpList();
    const br = await catchUpList({ "accept-encoding": "gzip;q=0.5, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(plain.json());
    const gzip = await catchUpList({ "accept-encoding": "gzip, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(plain.json());
  });
});

describe("the shared snapshot, kept warm by the server", () => {
  const catchUpList = () => t.app.inject({ method: "GET", url: "/api/products?catch_up=true", headers: { cookie: managerCookie } });
  const revisionOf = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-catalogue-revision"]);

  it("takes in a change within seconds, built in the background: no request builds it", async () => {
    const p = await manager.create();
    // Each of these catch-ups is one change behind at most, so it is answered from the snapshot
    // as it is (never built for it): the revision moves only when a background build ends.
    let seen = 0;
    const started = Date.now();
    await vi.waitFor(
      async () => {
        const res = await catchUpList();
        expect(res.statusCode).toBe(200);
        seen = revisionOf(res);
        expect(seen).toBeGreaterThanOrEqual(p.revision);
        expect(res.json<Product[]>().find((x) => x.id === p.id)).toEqual(p);
      },
      { timeout: 25_000, interval: 100 },
    );
    // Within the quiet time after the build before (a plain list's, in the test above), a poll and the build.
    const { quietMs, pollMs } = CATALOGUE_CACHE_DEFAULTS;
    expect(Date.now() - started).toBeLessThan(quietMs + pollMs + 5_000);
    expect(seen).toBe(revisionOf(await list()));
  });

  it("answers a catch-up after changes from the snapshot it has, and ?since= from its revision makes it the exact list", async () => {
    const p = await manager.create({ quantity_on_hand: 10 });
    const q = await manager.create({ quantity_on_hand: 3 });
    await tap(p, -1);
    await tap(p, -1);
    await manager.put(`/api/products/${q.id}/status`, { is_active: false });
    const res = await catchUpList();
    const revision = revisionOf(res);
    const merged = new Map(res.json<Product[]>().map((x) => [x.id, x]));
    const rest = await since(revision);
    for (const x of rest.products) merged.set(x.id, x);
    expect(merged.get(p.id)?.quantity_on_hand).toBe(8);
    expect(merged.get(q.id)?.is_active).toBe(false);
    const exact = (await list()).json<Product[]>();
    const byId = (a: Product, b: Product) => a.id - b.id;
    expect([...merged.values()].sort(byId)).toEqual([...exact].sort(byId));
  });

  it("stops with the app: it closes promptly and queries nothing after", async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const app = await buildApp({ config: testConfig(), database, serveClient: false });
      await app.ready();
      const m = await signedIn(app, "manager");
      await caller(app, m.cookie).create();
      // The snapshot of the start is built; the change is noticed by the next poll.
      await new Promise((r) => setTimeout(r, 1_200));
      const closing = Date.now();
      await app.close();
      expect(Date.now() - closing).toBeLessThan(10_000);
      // No poll and no build once closed: the database hears nothing more from the app.
      const { pool } = database;
      let queries = 0;
      const query = pool.query.bind(pool);
      pool.query = ((...args: Parameters<typeof pool.query>) => {
        queries += 1;
        return query(...args);
      }) as typeof pool.query;
      await new Promise((r) => setTimeout(r, 2_500));
      expect(queries).toBe(0);
    } finally {
      await database.close();
      await drop();
    }
    // A database and an app of its own: on the embedded database its start alone may take a while on a busy machine.
  }, 90_000);
});

describe("events", () => {
  it("carry the committed product of every change, and the Idempotency-Key of a keyed tap", async () => {
    const rec = recordEvents(t.app);
    const p = await manager.create({ quantity_on_hand: 5 });
    await manager.put(`/api/products/${p.id}`, { vendor: "Leaf" });
    await manager.put(`/api/products/${p.id}/status`, { is_active: false });
    await manager.put(`/api/products/${p.id}/status`, { is_active: true });
    await tap(p, -1, { "idempotency-key": "sold-one" });
    const last = await tap(p, -1);
    rec.stop();
    const mine = rec.events.filter((e) => e.data.id === p.id);
    expect(mine.map((e) => e.type)).toEqual([
      "product_created",
      "product_updated",
      "status_changed",
      "status_changed",
      "quantity_changed",
      "quantity_changed",
    ]);
    const revisions = mine.map((e) => e.data.product?.revision as number);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(new Set(revisions).size).toBe(mine.length);
    expect(mine.map((e) => e.data.product?.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mine[4]?.data).toMatchObject({ idempotency_key: "sold-one", quantity_change: -1, quantity_on_hand: 4 });
    expect(mine[5]?.data).not.toHaveProperty("idempotency_key");
    expect(mine[5]?.data.product).toEqual(last.json());
    expect(mine[5]?.data.product).toEqual(await byBarcode(p.barcode));
  });

  it("of an import carry its revision and count, and every imported product has that one revision", async () => {
    const existing = await manager.create({ vendor: "Topps" });
    const r = await catalogueRevision();
    const rec = recordEvents(t.app);
    const fresh = [newBarcode("IMP"), newBarcode("IMP")];
    const res = await manager.post("/api/products/import", {
      products: [
        ...fresh.map((barcode) => ({ barcode, product_name: "Imported", vendor: "Leaf", quantity_on_hand: "2" })),
        { barcode: existing.barcode, product_name: existing.product_name, vendor: "Bowman", quantity_on_hand: "10", release_year: "2024" },
      ],
    });
    rec.stop();
    expect(res.json()).toEqual({ import_id: expect.any(String), created: 2, updated: 1, skipped: 0, errors: [] });
    const [event, ...more] = rec.events as [InventoryUpdate, ...InventoryUpdate[]];
    expect(more).toEqual([]);
    expect(event.type).toBe("products_imported");
    expect(event.data).toEqual({ updated_by: expect.any(String), count: 3, revision: expect.any(Number) });
    const changed = await since(r);
    expect(changed.products.map((p) => p.barcode).sort()).toEqual([...fresh, existing.barcode].sort());
    expect(changed.products.every((p) => p.revision === event.data.revision)).toBe(true);
  });
});

describe("the watermark", () => {
  it("stays below a revision taken by a transaction that is still open, and moves past it on commit", async () => {
    // Same session: the functions of migration 0002 on either database.
    const held = await t.app.db.transaction(async (tx) => {
      const taken = await scalar(tx, sql`select take_revision() as value`);
      expect(await scalar(tx, sql`select catalogue_watermark() as value`)).toBeLessThan(taken);
      return taken;
    });
    expect(await scalar(t.app.db, sql`select catalogue_watermark() as value`)).toBeGreaterThanOrEqual(held);
  });

  it.runIf(process.env.DATABASE_URL)(
    "on PostgreSQL: a catch-up answers a revision below a change still in flight on another connection",
    async () => {
      const p = await manager.create();
      const before = await catalogueRevision();
      const other = await t.database.pool?.connect();
      if (!other) throw new Error("no pool on PostgreSQL");
      try {
        await other.query("begin");
        const held = Number((await other.query("select take_revision() as r")).rows[0].r);
        const committed = (await tap(p, 1)).json<Product>();
        expect(committed.revision).toBeGreaterThan(held);
        const answer = await since(before);
        expect(answer.revision).toBeLessThan(held);
        expect(answer.products.map((x) => x.id)).toEqual([p.id]);
        const listed = await list();
        expect(Number(listed.headers["x-catalogue-revision"])).toBeLessThan(held);
        expect(listed.headers.etag).toBeUndefined();
        await other.query("commit");
      } finally {
        other.release();
      }
      const after = await since(before);
      expect(after.revision).toBeGreaterThanOrEqual(after.products.at(-1)?.revision ?? Number.POSITIVE_INFINITY);
      expect((await list()).headers.etag).toBe(`"${after.revision}"`);
    },
  );
});
