import { inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_LIMIT_DEFAULT, auditUserSchema, productAuditEntrySchema, quantityAuditEntrySchema } from "../../../contract/audit.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { productAudit, products, quantityAudit } from "../../db/schema.js";
import { createUser, signedIn } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { insertProductAudit, insertQuantityAudit } from "./audit.repo.js";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LISTS = ["/api/audit/products", "/api/audit/quantity"] as const;
const ALL_ROUTES = ["/api/audit/products", "/api/audit/product/1", "/api/audit/quantity", "/api/audit/quantity/1", "/api/audit/users"];

let t: TestApp;
let app: FastifyInstance;
const cookies = {} as Record<Role, string>;
const userIds = {} as Record<Role, number>;

async function signIn(role: Role) {
  const { user, cookie } = await signedIn(app, role);
  cookies[role] = cookie;
  userIds[role] = user.id;
}

function get(url: string, role: Role | null = "manager") {
  return app.inject({ method: "GET", url, headers: role ? { cookie: cookies[role] } : {} });
}

async function insertProduct(name: string): Promise<number> {
  const [row] = await app.db
    .insert(products)
    .values({
      barcode: `AUD-${name}-${Math.random().toString(36).slice(2)}`,
      productName: name,
      vendor: "Topps",
      quantityOnHand: 0,
      revision: sql`take_revision()`,
    })
    .returning();
  if (!row) throw new Error("product insert returned nothing");
  return row.id;
}

/** Writes one product and one quantity entry for `productId` by `userId` at `at`, returns their ids. */
async function entryAt(productId: number, userId: number, at: Date, n: number) {
  const userName = `user${userId}`;
  await insertProductAudit(app.db, [
    {
      productId,
      productName: `P${productId}`,
      barcode: `B${productId}`,
      action: "QUANTITY_ADD",
      userId,
      userName,
      changedFields: ["quantity_on_hand"],
      oldValues: { quantity_on_hand: n },
      newValues: { quantity_on_hand: n + 1 },
      ipAddress: "127.0.0.1",
      productVersion: n + 2,
    },
  ]);
  await insertQuantityAudit(app.db, [
    {
      productId,
      productName: `P${productId}`,
      barcode: `B${productId}`,
      quantityChange: 1,
      quantityBefore: n,
      quantityAfter: n + 1,
      transactionType: "adjustment",
      notes: `n=${n}`,
      userId,
      userName,
    },
  ]);
  // Arrange the time explicitly (the API never updates audit rows; the test sets up history).
  await app.db
    .update(productAudit)
    .set({ timestamp: at })
    .where(inArray(productAudit.id, await lastIds(productAudit)));
  await app.db
    .update(quantityAudit)
    .set({ timestamp: at })
    .where(inArray(quantityAudit.id, await lastIds(quantityAudit)));
}

async function lastIds(table: typeof productAudit | typeof quantityAudit): Promise<number[]> {
  const rows = await app.db.select({ id: table.id }).from(table);
  return [Math.max(...rows.map((r) => r.id))];
}

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  for (const role of ["super_admin", "manager", "inventory", "streamer"] as const) await signIn(role);
});
afterAll(async () => {
  await t?.close();
});

describe("access", () => {
  it("answers 401 to a signed-out caller on every audit route", async () => {
    for (const url of ALL_ROUTES) {
      const res = await get(url, null);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("answers 403 to a streamer, even with invalid filters", async () => {
    for (const url of [...ALL_ROUTES, "/api/audit/products?limit=abc"]) {
      const res = await get(url, "streamer");
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("lets super_admin, manager and inventory read every audit route", async () => {
    for (const role of ["super_admin", "manager", "inventory"] as const) {
      for (const url of ALL_ROUTES) {
        const res = await get(url, role);
        expect(res.statusCode, `${role} ${url}`).toBe(200);
        expect(Array.isArray(res.json())).toBe(true);
      }
    }
  });
});

describe("entries written by the products API", () => {
  it("lists a create and a stock change newest first in the contract's shapes", async () => {
    const created = await app.inject({
      method: "POST",
      url: "/api/products",
      headers: { cookie: cookies.manager },
      payload: { barcode: "AUDIT-FLOW-1", product_name: "Audit Flow Card", vendor: "Panini", release_year: 2023, quantity_on_hand: 5 },
    });
    expect(created.statusCode).toBe(201);
    const product = created.json<Product>();
    const changed = await app.inject({
      method: "PUT",
      url: `/api/products/${product.id}/quantity`,
      headers: { cookie: cookies.streamer },
      payload: { quantity_change: -2, reason: "Sold on stream" },
    });
    expect(changed.statusCode).toBe(200);

    const trail = (await get(`/api/audit/product/${product.id}`)).json();
    expect(trail.map((e: { action: string }) => e.action)).toEqual(["QUANTITY_SUBTRACT", "CREATE"]);
    for (const entry of trail) {
      expect(productAuditEntrySchema.strict().parse(entry)).toEqual(entry);
      expect(entry.timestamp).toMatch(ISO_UTC);
      expect(entry).toMatchObject({ product_id: product.id, product_name: "Audit Flow Card", barcode: "AUDIT-FLOW-1" });
    }
    expect(trail[0]).toMatchObject({ user_id: userIds.streamer, changed_fields: ["quantity_on_hand"] });
    expect(trail[1]).toMatchObject({ user_id: userIds.manager, action: "CREATE" });

    const stock = (await get(`/api/audit/quantity/${product.id}`)).json();
    expect(stock).toHaveLength(2);
    for (const entry of stock) {
      expect(quantityAuditEntrySchema.strict().parse(entry)).toEqual(entry);
      expect(entry.timestamp).toMatch(ISO_UTC);
    }
    expect(stock[0]).toMatchObject({
      quantity_change: -2,
      quantity_before: 5,
      quantity_after: 3,
      transaction_type: "adjustment",
      notes: "Sold on stream",
      user_id: userIds.streamer,
    });
    expect(stock[1]).toMatchObject({ quantity_change: 5, quantity_before: 0, quantity_after: 5, transaction_type: "create" });

    // The whole-shop lists contain them too, newest first.
    const all = (await get("/api/audit/products")).json();
    expect(all[0]).toEqual(trail[0]);
    const allStock = (await get("/api/audit/quantity")).json();
    expect(allStock[0]).toEqual(stock[0]);
  });

  it("answers an empty list for a product without entries or an unknown id", async () => {
    const id = await insertProduct("Quiet");
    for (const url of [
      `/api/audit/product/${id}`,
      `/api/audit/quantity/${id}`,
      "/api/audit/product/999999",
      "/api/audit/quantity/999999",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual([]);
    }
  });
});

describe("filters, paging and order", () => {
  let pid: number;
  let other: number;
  const base = Date.parse("2025-03-01T12:00:00.000Z");
  const at = (minutes: number) => new Date(base + minutes * 60_000);

  beforeAll(async () => {
    pid = await insertProduct("Filtered");
    other = await insertProduct("Other");
    // 120 entries on pid, a minute apart, alternating between manager and inventory; entry i has notes n=i.
    for (let i = 0; i < 120; i++) {
      await entryAt(pid, i % 2 === 0 ? userIds.manager : userIds.inventory, at(i), i);
    }
    // Two entries on `other` with the same timestamp: the later id comes first.
    await entryAt(other, userIds.manager, at(500), 1000);
    await entryAt(other, userIds.manager, at(500), 1001);
  });

  const notesOf = (list: Array<{ notes: string | null }>) => list.map((e) => e.notes);
  const oldQuantities = (list: Array<{ old_values: Record<string, unknown> | null }>) => list.map((e) => e.old_values?.quantity_on_hand);

  it("returns the default of 100 entries, newest first, and at most `limit`", async () => {
    const page = (await get(`/api/audit/quantity/${pid}`)).json();
    expect(page).toHaveLength(AUDIT_LIMIT_DEFAULT);
    expect(notesOf(page)).toEqual(Array.from({ length: 100 }, (_, k) => `n=${119 - k}`));
    const big = (await get(`/api/audit/quantity/${pid}?limit=1000`)).json();
    expect(big).toHaveLength(120);
    const products = (await get(`/api/audit/product/${pid}?limit=5`)).json();
    expect(oldQuantities(products)).toEqual([119, 118, 117, 116, 115]);
  });

  it("orders equal timestamps by id, newest first", async () => {
    for (const url of [`/api/audit/quantity/${other}`, `/api/audit/product/${other}`]) {
      const list = (await get(url)).json();
      expect(list).toHaveLength(2);
      expect(list[0].timestamp).toBe(list[1].timestamp);
      expect(list[0].id).toBeGreaterThan(list[1].id);
    }
    const all = (await get("/api/audit/quantity?limit=1000")).json();
    const stamps = all.map((e: { timestamp: string; id: number }) => [Date.parse(e.timestamp), e.id]);
    const sorted = [...stamps].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(stamps).toEqual(sorted);
  });

  it("pages with limit and offset without gaps or repeats", async () => {
    const whole = (await get(`/api/audit/product/${pid}?limit=1000`)).json();
    const pages = [];
    for (let offset = 0; offset < 130; offset += 25) {
      pages.push(...(await get(`/api/audit/product/${pid}?limit=25&offset=${offset}`)).json());
    }
    expect(pages).toEqual(whole);
    expect((await get(`/api/audit/product/${pid}?offset=500`)).json()).toEqual([]);
  });

  it("filters by user", async () => {
    for (const list of LISTS) {
      const mine = (await get(`${list}?user_id=${userIds.inventory}&limit=1000`)).json();
      expect(mine).toHaveLength(60);
      expect(mine.every((e: { user_id: number }) => e.user_id === userIds.inventory)).toBe(true);
    }
    const one = (await get(`/api/audit/quantity/${pid}?user_id=${userIds.manager}&limit=3`)).json();
    expect(notesOf(one)).toEqual(["n=118", "n=116", "n=114"]);
    expect((await get(`/api/audit/quantity?user_id=999999`)).json()).toEqual([]);
  });

  it("filters by time, both ends inclusive, with any UTC offset", async () => {
    const since = at(10).toISOString();
    const until = at(14).toISOString();
    const range = (await get(`/api/audit/quantity/${pid}?since=${since}&until=${until}`)).json();
    expect(notesOf(range)).toEqual(["n=14", "n=13", "n=12", "n=11", "n=10"]);
    // The same instants written with a +02:00 offset.
    const shifted = (await get(`/api/audit/product/${pid}?since=2025-03-01T14:10:00%2B02:00&until=2025-03-01T14:14:00%2B02:00`)).json();
    expect(oldQuantities(shifted)).toEqual([14, 13, 12, 11, 10]);
    const late = (await get(`/api/audit/quantity/${pid}?since=${at(118).toISOString()}`)).json();
    expect(notesOf(late)).toEqual(["n=119", "n=118"]);
    const early = (await get(`/api/audit/quantity/${pid}?until=${at(1).toISOString()}`)).json();
    expect(notesOf(early)).toEqual(["n=1", "n=0"]);
    const combined = (
      await get(`/api/audit/quantity/${pid}?since=${since}&until=${until}&user_id=${userIds.manager}&limit=2&offset=1`)
    ).json();
    expect(notesOf(combined)).toEqual(["n=12", "n=10"]);
  });

  it("includes an entry in the millisecond `until` names, though stored times carry microseconds", async () => {
    const id = await insertProduct("Micro");
    await entryAt(id, userIds.manager, at(900), 1);
    await app.db.execute(sql`update quantity_audit set timestamp = timestamp + interval '700 microseconds' where product_id = ${id}`);
    const [entry] = (await get(`/api/audit/quantity/${id}`)).json();
    expect(entry.timestamp).toBe(at(900).toISOString());
    expect((await get(`/api/audit/quantity/${id}?until=${entry.timestamp}`)).json()).toHaveLength(1);
    expect((await get(`/api/audit/quantity/${id}?since=${entry.timestamp}`)).json()).toHaveLength(1);
    expect((await get(`/api/audit/quantity/${id}?until=${new Date(at(900).getTime() - 1).toISOString()}`)).json()).toEqual([]);
  });

  it("refuses invalid filters with 400", async () => {
    const bad = [
      "limit=0",
      "limit=1001",
      "limit=abc",
      "limit=1.5",
      "offset=-1",
      "offset=x",
      "user_id=abc",
      "user_id=0",
      "since=yesterday",
      "until=2025-13-01T00:00:00Z",
      "since=2025-03-01",
    ];
    for (const list of [...LISTS, `/api/audit/product/${pid}`, `/api/audit/quantity/${pid}`]) {
      for (const query of bad) {
        const res = await get(`${list}?${query}`);
        expect(res.statusCode, `${list}?${query}`).toBe(400);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
    for (const url of ["/api/audit/product/abc", "/api/audit/quantity/0", "/api/audit/product/-3"]) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
  });
});

describe("GET /api/audit/users", () => {
  it("lists every account as {id, username, role}, nothing more", async () => {
    const disabled = await createUser(app.db, { role: "inventory", isActive: false });
    const res = await get("/api/audit/users", "inventory");
    expect(res.statusCode).toBe(200);
    const list = res.json();
    for (const entry of list) expect(auditUserSchema.strict().parse(entry)).toEqual(entry);
    const ids = list.map((u: { id: number }) => u.id);
    for (const id of [...Object.values(userIds), disabled.id]) expect(ids).toContain(id);
    expect(list.find((u: { id: number }) => u.id === userIds.streamer)).toMatchObject({ role: "streamer" });
    expect(res.body).not.toContain("password");
  });
});
