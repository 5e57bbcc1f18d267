import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedToken } from "../../../contract/tokens.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../../test/server-processes.js";

/**
 * Two real server processes on one PostgreSQL database: a token revoked through one, or whose maker
 * is disabled through one, stops working on the other at once, though each process keeps validated
 * tokens for a minute here (SESSION_CACHE_MS): the revocation travels like ended sessions do
 * (a disabled maker's tokens with the maker's sessions), through socket.io's adapter.
 */

let cluster: ServerProcesses;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_tokens");
  servers = await Promise.all([cluster.start({ SESSION_CACHE_MS: "60000" }), cluster.start({ SESSION_CACHE_MS: "60000" })]);
}, 180_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

const withToken = (server: ServerProcess, secret: string, path: string) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);

/** Asks `server` until the token is refused (or 5 s pass): how long that took, in ms. */
async function refusedWithin(server: ServerProcess, secret: string, since: number): Promise<number> {
  let status = await withToken(server, secret, "/api/products");
  while (status === 200 && Date.now() - since < 5_000) {
    await new Promise((r) => setTimeout(r, 25));
    status = await withToken(server, secret, "/api/products");
  }
  expect(status).toBe(401);
  return Date.now() - since;
}

describe("API tokens across two server processes", () => {
  it("a token revoked through one process is refused by the other at once", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookie = await login(a, ADMIN.username, ADMIN.password);
    const created = await api<CreatedToken>(a, cookie, "POST", "/api/tokens", { name: "Web store", scopes: ["products:read"] });
    expect(created.status).toBe(201);
    const { secret, token } = created.body;
    // Both processes have validated the token (and keep it in their caches).
    expect(await withToken(a, secret, "/api/products")).toBe(200);
    expect(await withToken(b, secret, "/api/products")).toBe(200);

    const revoked = await fetch(`${a.url}/api/tokens/${token.id}`, { method: "DELETE", headers: { cookie } });
    expect(revoked.status).toBe(204);
    const at = Date.now();
    expect(await withToken(a, secret, "/api/products")).toBe(401);
    // The other process hears of it through the adapter: within moments, not after its cache's minute.
    expect(await refusedWithin(b, secret, at)).toBeLessThan(3_000);
    // A token made on B works on A, and B's list shows the revocation.
    const other = await api<CreatedToken>(b, await login(b, ADMIN.username, ADMIN.password), "POST", "/api/tokens", {
      name: "Marketplace",
      scopes: ["products:read"],
    });
    expect(await withToken(a, other.body.secret, "/api/products")).toBe(200);
  });

  it("a maker disabled through one process: their token is refused by both at once; enabled again, it works on both", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const admin = await login(a, ADMIN.username, ADMIN.password);
    const made = await api<{ id: number }>(a, admin, "POST", "/api/auth/users", {
      username: "mp_maker",
      password: "maker-password",
      role: "manager",
    });
    expect(made.status).toBe(201);
    const maker = await login(b, "mp_maker", "maker-password");
    const created = await api<CreatedToken>(b, maker, "POST", "/api/tokens", { name: "Maker's sync", scopes: ["products:read"] });
    expect(created.status).toBe(201);
    const { secret } = created.body;
    expect(await withToken(a, secret, "/api/products")).toBe(200);
    expect(await withToken(b, secret, "/api/products")).toBe(200);

    const disabled = await api(a, admin, "PUT", `/api/auth/users/${made.body.id}/status`, { is_active: false });
    expect(disabled.status).toBe(200);
    const at = Date.now();
    expect(await withToken(a, secret, "/api/products")).toBe(401);
    expect(await refusedWithin(b, secret, at)).toBeLessThan(3_000);

    // Sessions live in the database: the admin's works through the other process too.
    expect((await api(b, admin, "PUT", `/api/auth/users/${made.body.id}/status`, { is_active: true })).status).toBe(200);
    expect(await withToken(a, secret, "/api/products")).toBe(200);
    expect(await withToken(b, secret, "/api/products")).toBe(200);
  });
});
