import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "../test/factories.js";
import { caller } from "../test/product-calls.js";
import { createTestApp, type TestApp } from "../test/test-app.js";
import { type Actor, bodyText, type GeneratedRequest, requestOf } from "./arbitraries.test-support.js";
import { type ApiRoute, apiRoutes } from "./routes.test-support.js";

/**
 * Property-based tests of every route the app has: requests made from each route's
 * contract, then made wrong in every way a client can (wrong types, missing and extra fields,
 * huge strings, numbers out of range, deep and wide values, text that is not JSON, mutated path
 * parameters and query strings), sent as a super_admin, a streamer and an API token. Every
 * answer is a 2xx (the input happened to be valid), a 3xx or a 4xx with an `{error}` body, never
 * a 5xx, and the server still answers /api/health afterwards.
 *
 * Deterministic: each route's runs come from FUZZ_SEED (default below) and the route's name;
 * fast-check prints the seed, the path and the smallest failing request when a property fails.
 * FUZZ_SEED=<n> explores other inputs, FUZZ_RUNS=<n> more of them per route.
 */

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 37);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);

let t: TestApp;
let routes: ApiRoute[];
let tokenScopes: string[];
const credentials: Partial<Record<Actor, Record<string, string>>> = {};

beforeAll(async () => {
  // Sign-in limits and the token rate limit out of the way: the fuzzing signs in and calls a lot.
  t = await createTestApp({ LOGIN_MAX_FAILURES: 1_000_000, LOGIN_MAX_FAILURES_PER_ADDRESS: 1_000_000, API_TOKEN_RATE_LIMIT: 1_000_000 });
  routes = apiRoutes(t.app);
  const tokenBody = routes.find((r) => r.method === "POST" && r.path === "/api/tokens")?.body;
  tokenScopes = (tokenBody?.properties?.scopes?.items?.enum ?? []) as string[];
  // Rows for the ids the requests name (mostly 1 to 8): products, a show, an order, an import.
  const { super_admin: admin } = await ensureActors();
  const api = caller(t.app, admin.cookie ?? "");
  const barcodes: string[] = [];
  for (let i = 0; i < 4; i++) barcodes.push((await api.create({ quantity_on_hand: 50, price: 500 })).barcode);
  const seeded = [
    await api.post("/api/shows", { name: "Fuzzed show" }),
    await api.post("/api/orders", {
      channel: "ebay",
      external_id: "fuzz-1",
      lines: [{ barcode: barcodes[0], quantity: 1, unit_price: 450 }],
    }),
    await api.post("/api/products/import", { products: [{ barcode: barcodes[1], product_name: "Imported", vendor: "Topps" }] }),
  ];
  for (const res of seeded) expect(res.statusCode, res.body).toBeLessThan(300);
});
afterAll(async () => {
  await t?.close();
});

/** Whether these credentials still act (a fuzzed request may have signed out, disabled or revoked them). */
async function stillValid(headers: Record<string, string> | undefined, path: string): Promise<boolean> {
  if (!headers) return false;
  return (await t.app.inject({ method: "GET", url: path, headers })).statusCode === 200;
}

/** A super_admin, a streamer and an API token with every scope, made again when a request ended them. */
async function ensureActors(): Promise<Record<Actor, Record<string, string>>> {
  if (!(await stillValid(credentials.super_admin, "/api/auth/me")))
    credentials.super_admin = { cookie: (await signedIn(t.app, "super_admin")).cookie };
  if (!(await stillValid(credentials.streamer, "/api/auth/me")))
    credentials.streamer = { cookie: (await signedIn(t.app, "streamer")).cookie };
  if (!(await stillValid(credentials.token, "/api/products?limit=1"))) {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/tokens",
      headers: credentials.super_admin,
      payload: { name: `fuzz ${Date.now()} ${Math.random()}`, scopes: tokenScopes },
    });
    expect(res.statusCode, res.body).toBe(201);
    credentials.token = { authorization: `Bearer ${res.json().secret}` };
  }
  return credentials as Record<Actor, Record<string, string>>;
}

function seedOf(route: ApiRoute): number {
  let hash = BASE_SEED;
  for (const c of `${route.method} ${route.path}`) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
  return hash;
}

/** What went wrong with an answer, or nothing. */
function fault(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `answered ${res.statusCode}`;
  if (res.statusCode < 400) return undefined;
  try {
    const body = res.json() as { error?: unknown };
    return typeof body.error === "string" && body.error !== "" ? undefined : "an error without a message";
  } catch {
    return "an error whose body is not JSON";
  }
}

async function send(route: ApiRoute, request: GeneratedRequest, actors: Record<Actor, Record<string, string>>) {
  return t.app.inject({
    method: route.method as "GET",
    url: request.url,
    headers: { ...actors[request.actor], ...request.headers },
    ...(request.body === undefined ? {} : { payload: bodyText(request.body) }),
  });
}

describe("every route, fuzzed from its contract", () => {
  it("answers a 2xx, 3xx or a 4xx with {error}, never a 5xx, and the server keeps serving", { timeout: 600_000 }, async () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(tokenScopes.length).toBeGreaterThan(3);
    const started = Date.now();
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const actors = await ensureActors();
      try {
        await fc.assert(
          fc.asyncProperty(requestOf(route), async (request) => {
            const res = await send(route, request, actors);
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const wrong = fault(res);
            if (wrong) throw new Error(`${wrong}: ${res.statusCode} ${res.body.slice(0, 500)}`);
          }),
          { numRuns: RUNS_PER_ROUTE, seed: seedOf(route) },
        );
      } catch (err) {
        throw new Error(`${route.method} ${route.path}: ${(err as Error).message}`);
      }
      const health = await t.app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode, `after ${route.method} ${route.path}`).toBe(200);
    }
    const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.info(
      `${requests} fuzzed requests to ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s (${tally.join(", ")})`,
    );
  });
});
