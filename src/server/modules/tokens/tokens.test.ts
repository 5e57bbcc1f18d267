import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductAuditEntry, QuantityAuditEntry } from "../../../contract/audit.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import type { ReorderReport } from "../../../contract/reports.js";
import { TOKEN_SCOPES, type TokenScope } from "../../../contract/token-rules.js";
import type { ApiToken, CreatedToken } from "../../../contract/tokens.js";
import { apiTokens, products, users } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { multipart, plainPng } from "../../test/photo-files.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** Each token may make this many requests a minute here: low, so the limit is seen. */
const RATE_LIMIT = 25;

let t: TestApp;
let mediaDir: string;
let manager: { cookie: string; api: ReturnType<typeof caller> };

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), "blez-token-media-"));
  // Validated tokens are kept ten minutes here: what must stop at once cannot pass by waiting for the cache.
  t = await createTestApp({ API_TOKEN_RATE_LIMIT: RATE_LIMIT, MEDIA_DIR: mediaDir, SESSION_CACHE_MS: 10 * 60_000 });
  const { cookie } = await signedIn(t.app, "manager");
  manager = { cookie, api: caller(t.app, cookie) };
});
afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

let tokenSeq = 0;
async function newToken(scopes: readonly TokenScope[], cookie = manager.cookie): Promise<CreatedToken> {
  tokenSeq += 1;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/tokens",
    headers: { cookie },
    payload: { name: `Sync script ${tokenSeq}`, scopes },
  });
  if (res.statusCode !== 201) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** app.inject with `Authorization: Bearer <secret>` (and any other headers). */
function bearer(app: FastifyInstance, secret: string, extra: Record<string, string> = {}) {
  const call = (method: InjectOptions["method"], url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${secret}`, ...extra },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, payload?: unknown) => call("POST", url, payload),
    put: (url: string, payload?: unknown) => call("PUT", url, payload),
    delete: (url: string) => call("DELETE", url),
  };
}

const fakeMedia = `/api/media/${"a".repeat(64)}.webp`;

describe("creating and listing tokens", () => {
  it("a manager creates a token: the secret once (blez_ + 32 random bytes), only its hash stored, the prefix listed", async () => {
    const created = await newToken(["products:read", "orders:write"]);
    expect(created.secret).toMatch(/^blez_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({
      scopes: ["products:read", "orders:write"],
      prefix: created.secret.slice(0, 11),
      last_used_at: null,
      revoked_at: null,
    });
    const [row] = await t.app.db.select().from(apiTokens).where(eq(apiTokens.id, created.token.id));
    expect(row?.tokenHash).toBe(createHash("sha256").update(created.secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.secret);

    const list = await manager.api.get("/api/tokens");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json<ApiToken[]>().find((x) => x.id === created.token.id)).toEqual(created.token);
  });

  it("names are unique (any case) and never reused; the input is checked", async () => {
    const first = await manager.api.post("/api/tokens", { name: "eBay sync", scopes: ["products:read"] });
    expect(first.statusCode).toBe(201);
    await manager.api.post("/api/tokens", { name: "x", scopes: [] }).then((r) => expect(r.statusCode).toBe(400));
    await manager.api.post("/api/tokens", { name: " ", scopes: ["audit:read"] }).then((r) => expect(r.statusCode).toBe(400));
    await manager.api.post("/api/tokens", { name: "y", scopes: ["users:write"] }).then((r) => expect(r.statusCode).toBe(400));
    const again = await manager.api.post("/api/tokens", { name: "EBAY SYNC", scopes: ["products:read"] });
    expect(again.statusCode).toBe(409);
    // Revoked, the name stays taken: the audit's token:<name> names one token.
    expect((await manager.api.delete(`/api/tokens/${first.json<CreatedToken>().token.id}`)).statusCode).toBe(204);
    expect((await manager.api.post("/api/tokens", { name: "eBay sync", scopes: ["products:read"] })).statusCode).toBe(409);
  });

  it("managers and super administrators only; a token never manages tokens or users", async () => {
    for (const role of ["inventory", "streamer"] as const) {
      const { cookie } = await signedIn(t.app, role);
      const api = caller(t.app, cookie);
      expect((await api.get("/api/tokens")).statusCode).toBe(403);
      expect((await api.post("/api/tokens", { name: `by ${role}`, scopes: ["products:read"] })).statusCode).toBe(403);
    }
    const admin = await signedIn(t.app, "super_admin");
    expect((await newToken(["audit:read"], admin.cookie)).token.created_by).toBe(admin.user.username);

    const all = bearer(t.app, (await newToken(TOKEN_SCOPES)).secret);
    expect((await all.get("/api/tokens")).statusCode).toBe(403);
    expect((await all.post("/api/tokens", { name: "from a token", scopes: ["products:read"] })).statusCode).toBe(403);
    expect((await all.delete("/api/tokens/1")).statusCode).toBe(403);
    expect((await all.get("/api/auth/users")).statusCode).toBe(403);
    expect((await all.post("/api/auth/users", { username: "tokenmade", password: "secret-pw", role: "manager" })).statusCode).toBe(403);
    // Session-only routes: who am I, socket tokens, shows.
    expect((await all.get("/api/auth/me")).statusCode).toBe(403);
    expect((await all.get("/api/auth/socket-token")).statusCode).toBe(403);
    expect((await all.get("/api/shows")).statusCode).toBe(403);
  });
});

/** One call each scope allows, answering `ok` with the scope and 403 without it. */
const calls: Record<
  TokenScope,
  { ok: number; call: (api: ReturnType<typeof bearer>, p: Product) => ReturnType<ReturnType<typeof bearer>["get"]> }[]
> = {
  "products:read": [
    { ok: 200, call: (api) => api.get("/api/products") },
    { ok: 200, call: (api) => api.get("/api/products?since=0") },
    { ok: 200, call: (api, p) => api.get(`/api/products/barcode/${p.barcode}`) },
    { ok: 404, call: (api) => api.get(fakeMedia) },
  ],
  "quantity:write": [{ ok: 200, call: (api, p) => api.put(`/api/products/${p.id}/quantity`, { quantity_change: 1, reason: "Sync" }) }],
  "products:write": [
    { ok: 201, call: (api) => api.post("/api/products", { barcode: newBarcode("TK"), product_name: "Token Card", vendor: "Topps" }) },
    { ok: 200, call: (api, p) => api.put(`/api/products/${p.id}`, { location: "Shelf 2" }) },
    { ok: 200, call: (api, p) => api.put(`/api/products/${p.id}/status`, { is_active: true }) },
    { ok: 200, call: (api) => api.post("/api/products/import", { products: [] }) },
  ],
  "orders:write": [
    {
      ok: 201,
      call: (api, p) =>
        api.post("/api/orders", { channel: "web", external_id: newBarcode("ORD"), lines: [{ product_id: p.id, quantity: 1 }] }),
    },
    { ok: 200, call: (api) => api.get("/api/orders") },
  ],
  "audit:read": [
    { ok: 200, call: (api) => api.get("/api/audit/quantity") },
    { ok: 200, call: (api) => api.get("/api/audit/products") },
  ],
  "reports:read": [
    { ok: 200, call: (api) => api.get("/api/reports/reorder") },
    { ok: 200, call: (api) => api.get("/api/reports/sales?from=2026-03-01&to=2026-03-07") },
  ],
  "prices:write": [
    { ok: 200, call: (api) => api.get("/api/prices/feeds") },
    { ok: 200, call: (api) => api.get("/api/prices/proposals") },
  ],
  "trade_ins:write": [
    { ok: 200, call: (api) => api.get("/api/customers") },
    { ok: 200, call: (api) => api.get("/api/trade-ins") },
    { ok: 200, call: (api) => api.get("/api/counter/feed-cards?q=zz") },
  ],
  "stock_takes:write": [
    { ok: 200, call: (api) => api.get("/api/stock-takes") },
    { ok: 200, call: (api) => api.get("/api/locations") },
  ],
};

describe("a token's scopes", () => {
  for (const scope of TOKEN_SCOPES) {
    it(`${scope}: allowed with it, refused (403) with every other scope`, async () => {
      const product = await manager.api.create({ quantity_on_hand: 50 });
      const only = bearer(t.app, (await newToken([scope])).secret);
      const others = bearer(t.app, (await newToken(TOKEN_SCOPES.filter((s) => s !== scope))).secret);
      for (const { ok, call } of calls[scope]) {
        const allowed = await call(only, product);
        expect(allowed.statusCode, allowed.body).toBe(ok);
        const refused = await call(others, product);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toBe(`This API token lacks the ${scope} scope`);
      }
    });
  }

  it("photos: a products:write token uploads one, a products:read token fetches it, a token without products:read gets 403", async () => {
    const product = await manager.api.create();
    const body = await multipart(await plainPng("#00aa00"), "card.png", "image/png");
    const upload = await t.app.inject({
      method: "POST",
      url: `/api/products/${product.id}/photos`,
      headers: { authorization: `Bearer ${(await newToken(["products:write"])).secret}`, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const url = upload.json<{ photo: { url: string } }>().photo.url;
    expect((await bearer(t.app, (await newToken(["products:read"])).secret).get(url)).statusCode).toBe(200);
    expect((await bearer(t.app, (await newToken(["audit:read"])).secret).get(url)).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
  });
});

describe("bearer authentication", () => {
  it("unknown, malformed and revoked tokens are 401; revocation is at once", async () => {
    const created = await newToken(["products:read"]);
    const api = bearer(t.app, created.secret);
    expect((await api.get("/api/products")).statusCode).toBe(200);
    for (const secret of [`blez_${"x".repeat(43)}`, "not-a-token", `${created.secret}x`]) {
      const res = await bearer(t.app, secret).get("/api/products");
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("Invalid or revoked API token");
    }
    expect((await manager.api.delete(`/api/tokens/${created.token.id}`)).statusCode).toBe(204);
    expect((await api.get("/api/products")).statusCode).toBe(401);
    // Revoking again changes nothing; an unknown id is 404.
    expect((await manager.api.delete(`/api/tokens/${created.token.id}`)).statusCode).toBe(204);
    expect((await manager.api.delete("/api/tokens/2000000000")).statusCode).toBe(404);
    const listed = (await manager.api.get("/api/tokens")).json<ApiToken[]>().find((x) => x.id === created.token.id);
    expect(listed?.revoked_at).toEqual(expect.any(String));
    expect(listed?.last_used_at).toEqual(expect.any(String));
  });

  it("a Bearer request ignores cookies and needs no Origin check", async () => {
    const reader = await newToken(["products:read"]);
    // The manager's cookie does not lend its permissions to a token.
    const withCookie = bearer(t.app, reader.secret, { cookie: manager.cookie });
    expect((await withCookie.post("/api/products", { barcode: newBarcode(), product_name: "x", vendor: "y" })).statusCode).toBe(403);
    // An unknown token is refused even beside a valid session cookie.
    expect((await bearer(t.app, `blez_${"y".repeat(43)}`, { cookie: manager.cookie }).get("/api/products")).statusCode).toBe(401);
    // Another site's Origin refuses a cookie request, not a Bearer one (no cookie authority to abuse).
    const origin = { origin: "https://elsewhere.example" };
    const writer = bearer(t.app, (await newToken(["products:write"])).secret, origin);
    expect((await writer.post("/api/products", { barcode: newBarcode(), product_name: "Cross", vendor: "Topps" })).statusCode).toBe(201);
    const cookieCross = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: { cookie: manager.cookie, ...origin },
      payload: { barcode: newBarcode(), product_name: "Cross", vendor: "Topps" },
    });
    expect(cookieCross.statusCode).toBe(403);
  });

  it("every audit entry a token causes names the token", async () => {
    const created = await newToken(["products:write", "quantity:write"]);
    const api = bearer(t.app, created.secret);
    const made = await api.post("/api/products", { barcode: newBarcode(), product_name: "Audited", vendor: "Topps", quantity_on_hand: 3 });
    expect(made.statusCode).toBe(201);
    const product = made.json<Product>();
    expect((await api.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold on eBay" })).statusCode).toBe(200);
    expect((await api.put(`/api/products/${product.id}`, { vendor: "Panini" })).statusCode).toBe(200);
    const name = `token:${created.token.name}`;
    const productAudit = (await manager.api.get(`/api/audit/product/${product.id}`)).json<ProductAuditEntry[]>();
    expect(productAudit.map((e) => [e.action, e.user_name])).toEqual([
      ["UPDATE", name],
      ["QUANTITY_SUBTRACT", name],
      ["CREATE", name],
    ]);
    const quantityAudit = (await manager.api.get(`/api/audit/quantity/${product.id}`)).json<QuantityAuditEntry[]>();
    expect(quantityAudit.map((e) => [e.quantity_change, e.user_name])).toEqual([
      [-1, name],
      [3, name],
    ]);
  });

  it("Idempotency-Keys: a retry with a token changes nothing; two tokens of one manager never share a key", async () => {
    const product = await manager.api.create({ quantity_on_hand: 10 });
    const [one, two] = [(await newToken(["quantity:write"])).secret, (await newToken(["quantity:write"])).secret];
    const tap = (secret: string) =>
      t.app.inject({
        method: "PUT",
        url: `/api/products/${product.id}/quantity`,
        headers: { authorization: `Bearer ${secret}`, "idempotency-key": "order-1001" },
        payload: { quantity_change: -1, reason: "Sold online" },
      });
    expect((await tap(one)).json<Product>().quantity_on_hand).toBe(9);
    expect((await tap(one)).json<Product>().quantity_on_hand).toBe(9);
    expect((await tap(two)).json<Product>().quantity_on_hand).toBe(8);
    // The manager's own session has its own keys too.
    const own = await manager.api.put(
      `/api/products/${product.id}/quantity`,
      { quantity_change: -1, reason: "Sold online" },
      { "idempotency-key": "order-1001" },
    );
    expect(own.json<Product>().quantity_on_hand).toBe(7);
  });

  it(`rate limited per token: ${RATE_LIMIT} requests a minute, then 429 with Retry-After; other tokens unaffected`, async () => {
    const busy = bearer(t.app, (await newToken(["products:read"])).secret);
    for (let i = 0; i < RATE_LIMIT; i++) expect((await busy.get(fakeMedia)).statusCode).toBe(404);
    const limited = await busy.get(fakeMedia);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await bearer(t.app, (await newToken(["products:read"])).secret).get(fakeMedia)).statusCode).toBe(404);
  });

  it("the OpenAPI document offers the bearer scheme on the routes tokens may call", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(spec.paths["/api/orders"].post.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(spec.paths["/api/products/{id}/quantity"].put.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(spec.paths["/api/tokens"].post.security).toEqual([{ session: [] }]);
  });
});

describe("a token acts for its maker", () => {
  const stockOf = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]?.quantityOnHand;
  const listed = async (id: number) => (await manager.api.get("/api/tokens")).json<ApiToken[]>().find((x) => x.id === id);

  it("a disabled maker's tokens answer 401 at once and are listed as such; enabled again, they work again", async () => {
    const maker = await signedIn(t.app, "manager");
    const admin = caller(t.app, (await signedIn(t.app, "super_admin")).cookie);
    const product = await manager.api.create({ quantity_on_hand: 20 });
    const created = await newToken(["products:read", "quantity:write", "orders:write"], maker.cookie);
    const api = bearer(t.app, created.secret);
    const read = () => api.get(`/api/products/barcode/${product.barcode}`).then((r) => r.statusCode);
    const tap = () =>
      api.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold online" }).then((r) => r.statusCode);
    const order = () =>
      api
        .post("/api/orders", { channel: "web", external_id: newBarcode("DM"), lines: [{ product_id: product.id, quantity: 1 }] })
        .then((r) => r.statusCode);
    // Read, tap and order: the token is in this process's cache (ten minutes here) from now on.
    expect([await read(), await tap(), await order()]).toEqual([200, 200, 201]);
    expect(await stockOf(product.id)).toBe(18);
    expect((await listed(created.token.id))?.state).toBe("active");

    expect((await admin.put(`/api/auth/users/${maker.user.id}/status`, { is_active: false })).statusCode).toBe(200);
    const refused = await api.get(`/api/products/barcode/${product.barcode}`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe("Invalid or revoked API token");
    expect([await tap(), await order()]).toEqual([401, 401]);
    expect(await stockOf(product.id)).toBe(18);
    expect(await listed(created.token.id)).toMatchObject({
      state: "maker_disabled",
      effective_scopes: [],
      scopes: ["products:read", "quantity:write", "orders:write"],
      maker: { id: maker.user.id, username: maker.user.username, role: "manager", is_active: false },
      revoked_at: null,
    });

    expect((await admin.put(`/api/auth/users/${maker.user.id}/status`, { is_active: true })).statusCode).toBe(200);
    expect([await read(), await tap(), await order()]).toEqual([200, 200, 201]);
    expect(await stockOf(product.id)).toBe(16);
    expect(await listed(created.token.id)).toMatchObject({
      state: "active",
      effective_scopes: ["products:read", "quantity:write", "orders:write"],
      maker: { is_active: true },
    });
  });

  it("a new password for the maker leaves their tokens working", async () => {
    const maker = await signedIn(t.app, "manager");
    const admin = caller(t.app, (await signedIn(t.app, "super_admin")).cookie);
    const api = bearer(t.app, (await newToken(["products:read"], maker.cookie)).secret);
    expect((await api.get("/api/products?since=0")).statusCode).toBe(200);
    expect((await admin.put(`/api/auth/users/${maker.user.id}/password`, { newPassword: "another-secret" })).statusCode).toBe(200);
    expect((await api.get("/api/products?since=0")).statusCode).toBe(200);
  });
});

describe("a maker whose role drops keeps only the scopes the new role allows", () => {
  /** How long a validated token is trusted here: a role changed in the database is seen after it. */
  const CACHE_MS = 300;
  let r: TestApp;
  let admin: ReturnType<typeof caller>;
  beforeAll(async () => {
    r = await createTestApp({ SESSION_CACHE_MS: CACHE_MS, MEDIA_DIR: mediaDir });
    admin = caller(r.app, (await signedIn(r.app, "super_admin")).cookie);
  });
  afterAll(async () => {
    await r?.close();
  });

  const setRole = (id: number, role: Role) => r.app.db.update(users).set({ role }).where(eq(users.id, id));
  const pastTheCache = () => new Promise((resolve) => setTimeout(resolve, CACHE_MS + 100));

  /** The scopes each lower role keeps (the contract's table, written out). */
  const keeps: Array<[Role, TokenScope[]]> = [
    [
      "inventory",
      ["products:read", "quantity:write", "products:write", "audit:read", "reports:read", "trade_ins:write", "stock_takes:write"],
    ],
    ["streamer", ["products:read", "quantity:write"]],
  ];
  for (const [role, kept] of keeps) {
    it(`manager to ${role}: the scopes beyond ${role} answer 403 and the list shows the token limited; back to manager, all work`, async () => {
      const maker = await signedIn(r.app, "manager");
      const makerApi = caller(r.app, maker.cookie);
      const product = await makerApi.create({ quantity_on_hand: 50, cost: 250, reorder_point: 60 });
      const created = await makerApi.post("/api/tokens", { name: `Everything of ${maker.user.username}`, scopes: TOKEN_SCOPES });
      expect(created.statusCode).toBe(201);
      const { secret, token } = created.json<CreatedToken>();
      const api = bearer(r.app, secret);
      const tryAll = async (expectKept: (scope: TokenScope) => boolean) => {
        for (const scope of TOKEN_SCOPES) {
          for (const { ok, call } of calls[scope]) {
            const res = await call(api, product);
            if (expectKept(scope)) expect(res.statusCode, `${scope}: ${res.body}`).toBe(ok);
            else {
              expect(res.statusCode, `${scope}: ${res.body}`).toBe(403);
              expect(res.json().error).toBe(`This API token's ${scope} scope is beyond what its maker's role allows now`);
            }
          }
        }
      };
      const costSeen = async () =>
        (await api.get("/api/reports/reorder"))
          .json<ReorderReport>()
          .vendors.flatMap((v) => v.products)
          .find((p) => p.product_id === product.id)?.cost;
      await tryAll(() => true);
      // A manager's token reads reports as its manager does: with money at cost.
      expect(await costSeen()).toBe(250);

      await setRole(maker.user.id, role);
      await pastTheCache();
      await tryAll((scope) => kept.includes(scope));
      if (kept.includes("reports:read")) expect(await costSeen()).toBeNull();
      const listed = (await admin.get("/api/tokens")).json<ApiToken[]>().find((x) => x.id === token.id);
      expect(listed).toMatchObject({
        state: "limited",
        scopes: [...TOKEN_SCOPES],
        effective_scopes: kept,
        maker: { role, is_active: true },
      });

      await setRole(maker.user.id, "manager");
      await pastTheCache();
      await tryAll(() => true);
      const again = (await admin.get("/api/tokens")).json<ApiToken[]>().find((x) => x.id === token.id);
      expect(again).toMatchObject({ state: "active", effective_scopes: [...TOKEN_SCOPES] });
    });
  }
});
