import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep, MAX_JSON_DEPTH } from "../plugins/json-body.js";
import { signedIn } from "../test/factories.js";
import { TestSocket } from "../test/socket-client.js";
import { createTestApp, type TestApp } from "../test/test-app.js";
import { apiRoutes, deepJson, fastifyApiRoutes, readsBody, urlOf } from "./routes.test-support.js";

/**
 * No request can end the process: bodies nested too deeply are refused with 400 while
 * they are parsed, on every route, over real HTTP to a listening server, so a crash (an exception
 * thrown outside a request, which ends the process) would show as a refused connection.
 */

let t: TestApp;
let base: string;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signedIn(t.app, "super_admin")).cookie;
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await t?.close();
});

async function send(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, "content-type": "application/json", ...headers },
    body: readsBody(method) ? body : undefined,
  });
  const text = await res.text();
  let json: { error?: unknown } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

async function expectServing() {
  const res = await fetch(`${base}/api/health`);
  expect(res.status).toBe(200);
}

/** A crafted import body: one import row whose "constructor" nests `depth` levels, after `padRows` valid rows. */
function craftedImport(depth: number, padRows = 0): string {
  const pad = Array.from({ length: padRows }, (_, i) => `{"barcode":"PAD${i}","product_name":"Padding","vendor":"Topps"},`).join("");
  return `{"products":[${pad}${deepJson(depth, "constructor")}]}`;
}

describe("the depth rule", () => {
  it("counts arrays and objects, not brackets inside strings (escaped quotes and backslashes included)", () => {
    expect(jsonTooDeep(deepJson(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(deepJson(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(deepJson(MAX_JSON_DEPTH, "object"))).toBe(false);
    expect(jsonTooDeep(deepJson(MAX_JSON_DEPTH + 1, "object"))).toBe(true);
    expect(jsonTooDeep(`{"a":"${"[".repeat(100)}"}`)).toBe(false);
    expect(jsonTooDeep(`{"a":"\\"${"{".repeat(100)}"}`)).toBe(false); // an escaped quote does not end the string
    expect(jsonTooDeep(`["\\\\",${deepJson(MAX_JSON_DEPTH)}]`)).toBe(true); // an escaped backslash does not escape the quote
    // Depth, not count: many arrays side by side are fine.
    expect(jsonTooDeep(`[${Array.from({ length: 1000 }, () => "[[1]]").join(",")}]`)).toBe(false);
  });
});

describe("a deeply nested import body", () => {
  it("is refused with 400 when read on the event loop (100 kB), and the server keeps serving", async () => {
    const body = craftedImport(5_000);
    expect(body.length).toBeGreaterThan(75_000);
    expect(body.length).toBeLessThan(256 * 1024);
    for (const path of ["/api/products/import", "/api/products/import?dry_run=true"]) {
      const res = await send("POST", path, body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: JSON_TOO_DEEP_MESSAGE, details: [{ path: "body", message: JSON_TOO_DEEP_MESSAGE }] });
    }
    await expectServing();
  });

  it("is refused with 400 when read in the worker thread (over 256 kB), and the server keeps serving", async () => {
    const body = craftedImport(5_000, 4_000);
    expect(body.length).toBeGreaterThan(256 * 1024);
    const res = await send("POST", "/api/products/import", body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: JSON_TOO_DEEP_MESSAGE });
    // The worker is still there for the next body: a valid large import goes through.
    const rows = Array.from({ length: 4_000 }, (_, i) => ({ barcode: `BIG${i}`, product_name: "Big import", vendor: "Topps" }));
    const ok = await send("POST", "/api/products/import?dry_run=true", JSON.stringify({ products: rows }));
    expect(ok.status, ok.text).toBe(200);
    await expectServing();
  });

  it("is refused as a part of a staged import too", async () => {
    const job = await send("POST", "/api/products/import/jobs", "");
    expect(job.status, job.text).toBe(201);
    const { id } = job.json as unknown as { id: string };
    for (const body of [craftedImport(5_000), craftedImport(5_000, 4_000)]) {
      const res = await send("PUT", `/api/products/import/jobs/${id}/parts/1`, body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: JSON_TOO_DEEP_MESSAGE });
    }
    await expectServing();
  });

  it("takes 32 levels, the most any route needs", async () => {
    // A row is at level 3 (the body, products, the row): a cell 29 levels deeper is the 32nd level.
    const deepest = `{"products":[{"barcode":"DEEP32","product_name":"Deep","vendor":"Topps","constructor":${deepJson(29)}}]}`;
    expect(jsonTooDeep(deepest)).toBe(false);
    const res = await send("POST", "/api/products/import?dry_run=true", deepest);
    expect(res.status, res.text).toBe(200);
    const tooDeep = `{"products":[{"barcode":"DEEP33","product_name":"Deep","vendor":"Topps","constructor":${deepJson(30)}}]}`;
    expect((await send("POST", "/api/products/import?dry_run=true", tooDeep)).status).toBe(400);
  });
});

describe("a deep body on every route", () => {
  it("the routes tested are every /api route the app has", () => {
    const documented = apiRoutes(t.app)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(documented.length).toBeGreaterThan(50);
    expect(fastifyApiRoutes(t.app)).toEqual(documented);
  });

  it("is refused with 400 while it is parsed (33 and 5,000 levels), and the server keeps serving", async () => {
    const bodies = [deepJson(MAX_JSON_DEPTH + 1), deepJson(5_000, "object"), `{"a":${deepJson(5_000)}}`, deepJson(5_000, "constructor")];
    for (const route of apiRoutes(t.app)) {
      for (const body of bodies) {
        const res = await send(route.method, urlOf(route, {}), body);
        const what = `${route.method} ${route.path} (${body.length} bytes): ${res.status} ${res.text.slice(0, 200)}`;
        if (readsBody(route.method)) {
          // 413 where the body is over the route's limit (8 kB for signing in), refused before it is read.
          if (res.status === 413 && body.length > 8 * 1024) continue;
          expect(res.status, what).toBe(400);
          expect(res.json?.error, what).toBe(JSON_TOO_DEEP_MESSAGE);
        } else {
          // GET reads no body: the deep one is ignored, whatever the route answers.
          expect(res.status, what).toBeLessThan(500);
        }
      }
    }
    // The public routes read bodies before anyone signs in: refused the same way.
    for (const path of ["/api/auth/login", "/api/auth/logout"]) {
      const res = await send("POST", path, deepJson(1_000), { cookie: "" });
      expect(res.status).toBe(400);
      expect(res.json?.error).toBe(JSON_TOO_DEEP_MESSAGE);
    }
    await expectServing();
    // The session survived every refused body (none reached a handler, the sign-out's included).
    expect((await send("GET", "/api/auth/me", "")).status).toBe(200);
  });

  it("is refused with the same 400 whatever the JSON content type's parameters", async () => {
    const res = await send("POST", "/api/products", deepJson(5_000), { "content-type": "application/json; charset=utf-8" });
    expect(res.status).toBe(400);
    expect(res.json?.error).toBe(JSON_TOO_DEEP_MESSAGE);
  });

  it("never reaches a socket.io handler in a way that ends the process", async () => {
    const socket = new TestSocket(base);
    try {
      await socket.connected();
      // Deep payloads, written as socket.io's event packets ("2" and the arguments' JSON) straight to
      // the connection (the client's own encoder is recursive and overflows on them): to the one
      // event the server listens to, and to one it does not know (each within the server's 16 kB a message).
      const engine = socket.socket.io.engine;
      engine.write(`2["authenticate",${deepJson(2_500, "object")}]`);
      engine.write(`2["no_such_event",${deepJson(5_000)}]`);
      engine.write(`2["authenticate",{"token":${deepJson(5_000)}}]`);
      await socket.next("auth_error");
      await expectServing();
      // The socket still works: a real token authenticates it.
      const token = (await send("GET", "/api/auth/socket-token", "")).json as unknown as { token: string };
      socket.authenticate(token.token);
      await socket.next("authenticated");
    } finally {
      socket.close();
    }
  });
});
