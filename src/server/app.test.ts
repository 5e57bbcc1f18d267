import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { ANONYMOUS_BODY_LIMIT_BYTES, DEFAULT_BODY_LIMIT_BYTES } from "./body-limits.js";
import { openPglite } from "./db/client.js";
import { users } from "./db/schema.js";
import { withTransaction } from "./db/tx.js";
import { DB_UNAVAILABLE } from "./plugins/errors.js";
import { apiSecurityHeaders, securityHeaders } from "./plugins/security-headers.js";
import { testConfig } from "./test/config.js";
import { createUser, loginAs, signedIn, TEST_PASSWORD } from "./test/factories.js";
import { migratedDataDir } from "./test/templates.js";
import { createTestApp, createTestDatabase, type TestApp } from "./test/test-app.js";

/** For tests that open a second database: its migrations alone can take a while on a busy machine. */
const SECOND_APP = { timeout: 120_000 };

/** Cross-cutting behaviour of the whole app: errors, CSRF check, headers, docs, 404s, database down. */

let t: TestApp;
let manager: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = (await signedIn(t.app, "manager")).cookie;
});
afterAll(async () => {
  await t?.close();
});

const json = { "content-type": "application/json" };

describe("bad input is a 4xx with an {error} body, never a 500", () => {
  it("malformed JSON, empty JSON bodies, wrong content types", async () => {
    const cases = [
      { payload: "{not json", headers: json, status: 400 },
      { payload: '{"username": "a", "password": ', headers: json, status: 400 },
      { payload: "", headers: json, status: 400 },
      { payload: "   ", headers: json, status: 400 },
      { payload: "null", headers: json, status: 400 },
      { payload: '"text"', headers: json, status: 400 },
      { payload: "[1, 2]", headers: json, status: 400 },
      { payload: '{"__proto__": {"admin": true}}', headers: json, status: 400 },
      { payload: "username=a&password=b", headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415 },
      { payload: "plain", headers: { "content-type": "text/plain" }, status: 400 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: c.payload, headers: c.headers });
      expect(res.statusCode, c.payload).toBe(c.status);
      expect(res.json(), c.payload).toEqual({ error: expect.any(String), ...(res.json().details ? { details: expect.any(Array) } : {}) });
    }
  });

  it("strings where numbers or booleans go, huge numbers, unknown ids", async () => {
    const target = await createUser(t.app.db);
    const cases: Array<[string, unknown, number]> = [
      [`/api/auth/users/${target.id}/status`, { is_active: "true" }, 400],
      [`/api/auth/users/${target.id}/status`, '{"is_active": 1e400}', 400],
      [`/api/auth/users/${target.id}/status`, { is_active: { nested: true } }, 400],
      ["/api/auth/users/abc/status", { is_active: true }, 400],
      ["/api/auth/users/1e999/status", { is_active: true }, 400],
      ["/api/auth/users/12345678901234567890123/status", { is_active: true }, 400],
      ["/api/auth/users/2147483648/status", { is_active: true }, 400],
      ["/api/auth/users/2147483648/password", { newPassword: "long-enough" }, 400],
      [`/api/auth/users/${target.id}/password`, { newPassword: 12345678 }, 400],
      [`/api/auth/users/${target.id}/password`, '{"newPassword": 123456789012345678901234567890}', 400],
      [`/api/auth/users/${target.id}/password`, { newPassword: "x".repeat(2000) }, 400],
    ];
    for (const [url, body, status] of cases) {
      const res = await t.app.inject({
        method: "PUT",
        url,
        payload: typeof body === "string" ? body : JSON.stringify(body),
        headers: { ...json, cookie: manager },
      });
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(typeof res.json().error).toBe("string");
    }
  });

  it("names the field in plain words when a value is missing or of the wrong type", async () => {
    const missing = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username: "someone" } });
    expect(missing.json()).toEqual({
      error: "password is required",
      details: [{ path: "password", message: "password is required" }],
    });
    const array = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: "[]", headers: json });
    expect(array.json().error).toBe("Request body must be an object");
    const put = (url: string, payload: unknown) =>
      t.app.inject({ method: "PUT", url, payload: payload as object, headers: { cookie: manager } });
    expect((await put("/api/auth/users/abc/status", { is_active: true })).json().error).toBe("id must be a number");
    expect((await put("/api/auth/users/1/status", { is_active: "yes" })).json().error).toBe("is_active must be a boolean");
    // The contract's own messages stay as they are.
    expect((await put("/api/auth/users/1/password", { newPassword: "123" })).json().error).toBe(
      "Password must be at least 6 characters long",
    );
  });

  it("an empty JSON body counts as no body: logout works as the client sends it", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { ...json, cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(401);
    const create = await t.app.inject({ method: "POST", url: "/api/auth/users", headers: { ...json, cookie: manager } });
    expect(create.statusCode).toBe(400);
    expect(create.json().error).toBe("Request body must be an object");
  });

  it("refuses a 1 MB anonymous sign-in body with 413 before reading it; other routes need a session first", async () => {
    const huge = JSON.stringify({ username: "a", password: "x".repeat(1024 * 1024) });
    expect(huge.length).toBeGreaterThan(ANONYMOUS_BODY_LIMIT_BYTES);
    for (const url of ["/api/auth/login", "/api/auth/logout"]) {
      const res = await t.app.inject({ method: "POST", url, payload: huge, headers: json });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toEqual({ error: "Request body is too large" });
    }
    // Without a session, a signed-in route answers 401 without reading the body.
    const anonymous = await t.app.inject({ method: "POST", url: "/api/products/import", payload: huge, headers: json });
    expect(anonymous.statusCode).toBe(401);
    // Signed in: small limits for ordinary bodies, a large one for imports.
    const product = JSON.stringify({ barcode: "B-1", product_name: "x".repeat(DEFAULT_BODY_LIMIT_BYTES), vendor: "V" });
    const big = await t.app.inject({ method: "POST", url: "/api/products", payload: product, headers: { ...json, cookie: manager } });
    expect(big.statusCode).toBe(413);
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ barcode: `BULK-${i}`, product_name: "Card", vendor: "Topps" }));
    const preview = await t.app.inject({
      method: "POST",
      url: "/api/products/import?dry_run=true",
      payload: { products: rows },
      headers: { cookie: manager },
    });
    expect(JSON.stringify({ products: rows }).length).toBeGreaterThan(DEFAULT_BODY_LIMIT_BYTES);
    expect(preview.statusCode).toBe(200);
  });

  it("unknown API routes answer a JSON 404", async () => {
    for (const [method, url] of [
      ["GET", "/api/nope"],
      ["POST", "/api/nope"],
      ["GET", "/api/auth/users/1"],
      ["DELETE", "/api/auth/users/1"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: manager } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: `Route ${method} ${url} not found` });
    }
  });
});

/** The node-postgres client a drizzle transaction runs on. */
function connectionOf(tx: unknown): { connection: { stream: { destroy(): void } } } {
  return (tx as { session: { client: { connection: { stream: { destroy(): void } } } } }).session.client;
}

describe("one auth layer on /api", () => {
  it("every API route needs a session but sign-in, sign-out, health and the public buylist (and the docs)", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const open = new Set([
      "POST /api/auth/login",
      "POST /api/auth/logout",
      "GET /api/health",
      "GET /api/buylist",
      "POST /api/buylist/submissions",
    ]);
    const seen: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        seen.push(route);
        const url = path.replace("{id}", "1").replace("{barcode}", "B-1");
        const res = await t.app.inject({ method: method.toUpperCase() as "GET", url, payload: method === "get" ? undefined : {} });
        if (open.has(route)) expect(res.statusCode, route).not.toBe(401);
        else expect(res.statusCode, route).toBe(401);
      }
    }
    expect(seen.length).toBeGreaterThan(15);
    expect((await t.app.inject({ method: "GET", url: "/api/docs/json" })).statusCode).toBe(200);
  });

  it("a route's permission is checked before its input: 403 for a streamer whatever the body", async () => {
    const { cookie } = await signedIn(t.app, "streamer");
    for (const [method, url] of [
      ["GET", "/api/auth/users"],
      ["POST", "/api/auth/users"],
      ["PUT", "/api/auth/users/abc/status"],
      ["POST", "/api/products"],
      ["PUT", "/api/products/1"],
      ["PUT", "/api/products/x/status"],
      ["POST", "/api/products/import?dry_run=maybe"],
      ["GET", "/api/audit/products?limit=-5"],
      ["GET", "/api/audit/users"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie }, payload: method === "GET" ? undefined : { nonsense: true } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    // What a streamer may do goes on to validation.
    const tap = await t.app.inject({ method: "PUT", url: "/api/products/1/quantity", headers: { cookie }, payload: {} });
    expect(tap.statusCode).toBe(400);
  });

  it("answers a too large anonymous body with 413 as soon as its headers arrive, without waiting for it", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        // Announces 1 MB and sends one byte of it.
        socket.write(
          "POST /api/auth/login HTTP/1.1\r\nHost: shop.example\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{",
        );
      });
      let text = "";
      socket.on("data", (d) => {
        text += String(d);
        if (text.includes("\r\n\r\n")) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe("database errors", () => {
  it("GET /api/health answers 200 {status: ok} while the database answers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("maps a unique violation to 409, a refused value to 400, and a connection lost in a transaction to 503", SECOND_APP, async () => {
    const { database, drop } = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database, serveClient: false });
    // Real statements against the real database, reaching the real error handler.
    app.post("/api/test/duplicate-user", async () => {
      await app.db.insert(users).values({ username: "Twin", passwordHash: "x", role: "streamer" });
      await app.db.insert(users).values({ username: "twin", passwordHash: "x", role: "streamer" });
      return { ok: true };
    });
    app.get("/api/test/bad-cast", async () => app.db.execute(sql`select ${"abc"}::int as n`));
    app.get("/api/test/out-of-range", async () => app.db.execute(sql`select ${"99999999999"}::int as n`));
    app.post("/api/test/lost-in-transaction", async () =>
      withTransaction(app.db, async (tx) => {
        await tx.execute(sql`select 1`);
        // The connection breaks while the transaction is open (a database restart, a network cut).
        connectionOf(tx).connection.stream.destroy();
        await tx.execute(sql`select 1`);
      }),
    );
    try {
      await app.ready();
      const dup = await app.inject({ method: "POST", url: "/api/test/duplicate-user" });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({ error: "Username already exists" });
      for (const url of ["/api/test/bad-cast", "/api/test/out-of-range"]) {
        const res = await app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ error: "Invalid input" });
      }
      const lost = await app.inject({ method: "POST", url: "/api/test/lost-in-transaction" });
      expect(lost.statusCode).toBe(503);
      expect(lost.json()).toEqual({ error: DB_UNAVAILABLE });
      // The broken connection is gone from the pool: the next request works.
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await drop();
    }
  });

  it("answers 503 when the database is down", SECOND_APP, async () => {
    const { database, drop } = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database, serveClient: false });
    try {
      await app.ready();
      const user = await createUser(app.db, { role: "manager" });
      const cookie = await loginAs(app, user.username);
      // PGlite closes at once. On PostgreSQL, ending the pool refuses new queries at once but
      // completes only once app.close() below gives back the socket.io adapter's connection.
      const closing = database.close();
      if (database.kind === "pglite") await closing;
      const requests = [
        app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } }),
        app.inject({ method: "GET", url: "/api/auth/users", headers: { cookie } }),
        app.inject({ method: "POST", url: "/api/auth/login", payload: { username: user.username, password: TEST_PASSWORD } }),
      ];
      for (const res of await Promise.all(requests)) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ error: DB_UNAVAILABLE });
      }
      const health = await app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode).toBe(503);
      await app.close();
      await closing;
    } finally {
      await app.close().catch(() => {});
      await drop();
    }
  });
});

describe("CSRF: Origin check on mutating requests", () => {
  const loginBody = { username: "nobody-here", password: "whatever" };

  it("refuses a cross-site POST/PUT with 403 before anything else happens", async () => {
    for (const origin of ["https://evil.example", "http://localhost.evil.example", "null", "not a url"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: loginBody,
        headers: { host: "shop.example", origin },
      });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual({ error: "Cross-site request refused" });
    }
    const put = await t.app.inject({
      method: "PUT",
      url: "/api/auth/users/1/status",
      payload: { is_active: false },
      headers: { host: "shop.example", origin: "https://evil.example", cookie: manager },
    });
    expect(put.statusCode).toBe(403);
  });

  it("lets same-origin requests and requests without Origin through; GETs are not checked", async () => {
    const same = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: loginBody,
      headers: { host: "shop.example:8080", origin: "http://shop.example:8080" },
    });
    expect(same.statusCode).toBe(401);
    const none = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: loginBody });
    expect(none.statusCode).toBe(401);
    const get = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { origin: "https://evil.example", cookie: manager } });
    expect(get.statusCode).toBe(200);
  });

  it("compares with X-Forwarded-Host only behind a trusted proxy", SECOND_APP, async () => {
    const headers = { host: "127.0.0.1:3000", "x-forwarded-host": "shop.example", origin: "https://shop.example" };
    const direct = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers });
    expect(direct.statusCode).toBe(403);
    // Only the configuration matters here: a second app on a database of its own.
    const { database, drop } = await createTestDatabase();
    const proxied = await buildApp({ config: testConfig({ TRUST_PROXY: 1 }), database, serveClient: false });
    try {
      const res = await proxied.inject({ method: "POST", url: "/api/auth/logout", headers });
      expect(res.statusCode).toBe(200);
    } finally {
      await proxied.close();
      await database.close();
      await drop();
    }
  });
});

describe("the built client", () => {
  it("is served with the one-page fallback, long caching for hashed assets only, and JSON 404s under /api", SECOND_APP, async () => {
    const dir = mkdtempSync(join(tmpdir(), "blez-client-"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Blez test client</title>");
    writeFileSync(join(dir, "assets", "index-AbCd12_-.js"), "console.log(1)");
    writeFileSync(join(dir, "theme-init.js"), "void 0");
    // Pre-compressed copies, as the build writes them.
    const bundle = "console.log(1)";
    writeFileSync(join(dir, "assets", "index-AbCd12_-.js.br"), brotliCompressSync(bundle));
    writeFileSync(join(dir, "assets", "index-AbCd12_-.js.gz"), gzipSync(bundle));
    // The embedded database, whichever the run uses (its close below is immediate).
    const dataDir = migratedDataDir();
    const database = await openPglite(dataDir);
    let databaseClosed = false;
    const app = await buildApp({ config: testConfig({ CLIENT_DIR: dir }), database, serveClient: true });
    try {
      for (const url of ["/", "/inventory", "/users?x=1"]) {
        const res = await app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain("Blez test client");
        expect(res.headers["cache-control"], url).toBe("no-cache");
      }
      const asset = await app.inject({ method: "GET", url: "/assets/index-AbCd12_-.js" });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect((await app.inject({ method: "GET", url: "/theme-init.js" })).headers["cache-control"]).toBe("no-cache");
      for (const [accept, encoding, decode] of [
        ["br, gzip", "br", brotliDecompressSync],
        ["gzip", "gzip", gunzipSync],
      ] as const) {
        const res = await app.inject({ method: "GET", url: "/assets/index-AbCd12_-.js", headers: { "accept-encoding": accept } });
        expect(res.headers["content-encoding"], accept).toBe(encoding);
        expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(decode(res.rawPayload).toString()).toBe(bundle);
      }
      for (const [method, url] of [
        ["GET", "/api"],
        ["GET", "/api/unknown"],
        ["GET", "/socket.io"],
        ["POST", "/inventory"],
      ] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ error: `Route ${method} ${url} not found` });
      }
      // Files never look up a session: with the database gone they are still served (with a
      // session cookie), while API calls answer 503.
      await database.close();
      databaseClosed = true;
      const cookie = `blez_session=${"a".repeat(43)}`;
      for (const url of ["/", "/assets/index-AbCd12_-.js"]) {
        expect((await app.inject({ method: "GET", url, headers: { cookie } })).statusCode, url).toBe(200);
      }
      expect((await app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(503);
    } finally {
      await app.close();
      if (!databaseClosed) await database.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("headers and documentation", () => {
  it("sends the documents a Content-Security-Policy and the other helmet headers", async () => {
    for (const url of ["/", "/inventory", "/api/docs"]) {
      const res = await t.app.inject({ method: "GET", url });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      // Live connections go to this host only ('self' covers its ws: and wss:), never any other.
      expect(csp).toContain("connect-src 'self';");
      expect(csp).not.toMatch(/ws:|wss:/);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["cross-origin-opener-policy"], url).toBe("same-origin");
    }
  });

  it("sends API answers the API's headers: nothing of their own may run, be framed or be loaded by another site", async () => {
    for (const url of ["/api/health", "/api/nope", "/api/products/barcode/0000"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.headers["content-security-policy"], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      // Only what a document needs is left out.
      expect(res.headers["cross-origin-opener-policy"], url).toBeUndefined();
    }
  });

  it("keeps HSTS on API answers behind HTTPS, as on the documents", () => {
    const behindHttps = securityHeaders({ https: true });
    expect(behindHttps["strict-transport-security"]).toMatch(/^max-age=\d+/);
    expect(apiSecurityHeaders(behindHttps)["strict-transport-security"]).toBe(behindHttps["strict-transport-security"]);
    expect(apiSecurityHeaders(securityHeaders({ https: false }))["strict-transport-security"]).toBeUndefined();
  });

  it("API answers are never stored (Cache-Control: no-store), signed in or not, errors included", async () => {
    const cookie = manager;
    for (const [method, url, headers] of [
      ["GET", "/api/auth/me", { cookie }],
      ["GET", "/api/auth/users", { cookie }],
      ["GET", "/api/auth/me", {}],
      ["GET", "/api/products/barcode/UNKNOWN", { cookie }],
      ["GET", "/api/health", {}],
      ["POST", "/api/auth/login", {}],
    ] as const) {
      const res = await t.app.inject({ method, url, headers });
      expect(res.headers["cache-control"], `${method} ${url} ${res.statusCode}`).toBe("no-store");
    }
  });

  it("documents the error answers and the real limits of paths in the OpenAPI document", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const responses = (path: string, method: string) => spec.paths[path][method].responses;
    const errorSchema = (r: { content: { "application/json": { schema: unknown } } }) => r.content["application/json"].schema;
    const login = responses("/api/auth/login", "post");
    for (const status of ["400", "401", "403", "413", "429", "503"]) {
      expect(errorSchema(login[status]), status).toMatchObject({ properties: { error: { type: "string" } }, required: ["error"] });
    }
    expect(Object.keys(responses("/api/products/{id}/quantity", "put"))).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404", "409", "413", "422", "503"]),
    );
    expect(Object.keys(responses("/api/auth/users", "get"))).toEqual(expect.arrayContaining(["200", "401", "403", "503"]));
    expect(Object.keys(responses("/api/health", "get"))).toEqual(["200", "503"]);
    const param = (path: string, name: string) =>
      spec.paths[path].get?.parameters?.find((p: { name: string }) => p.name === name) ??
      spec.paths[path].put.parameters.find((p: { name: string }) => p.name === name);
    expect(param("/api/products/barcode/{barcode}", "barcode").schema).toMatchObject({ maxLength: 100 });
    expect(param("/api/products/{id}/quantity", "id").schema).toMatchObject({ maximum: 2147483647 });
    // The router's own limit is the documented one: 100 characters pass, 101 are a 414.
    const atLimit = await t.app.inject({ method: "GET", url: `/api/products/barcode/${"B".repeat(100)}`, headers: { cookie: manager } });
    expect(atLimit.statusCode).toBe(404);
    const over = await t.app.inject({ method: "GET", url: `/api/products/barcode/${"B".repeat(101)}`, headers: { cookie: manager } });
    expect(over.statusCode).toBe(414);
  });

  it("serves the OpenAPI UI at /api/docs and a document listing the auth and users routes", async () => {
    const ui = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(ui.statusCode);
    const page = ui.statusCode === 302 ? await t.app.inject({ method: "GET", url: `/api/docs/${ui.headers.location}` }) : ui;
    const html = page.statusCode === 200 ? page.body : (await t.app.inject({ method: "GET", url: "/api/docs/static/index.html" })).body;
    expect(html).toContain("swagger-ui");

    const doc = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    const paths = Object.keys(spec.paths);
    for (const path of [
      "/api/auth/login",
      "/api/auth/logout",
      "/api/auth/me",
      "/api/auth/verify-permissions",
      "/api/auth/socket-token",
      "/api/auth/users",
      "/api/auth/users/{id}/status",
      "/api/auth/users/{id}/password",
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(spec.paths["/api/auth/users"].post.requestBody).toBeDefined();
    expect(JSON.stringify(spec)).not.toContain("password_hash");
  });
});
