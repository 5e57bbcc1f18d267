import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate, OnlineUser } from "../../contract/events.js";
import type { Role } from "../../contract/permissions.js";
import type { Product } from "../../contract/products.js";
import { socketTokens, users } from "../db/schema.js";
import { MAX_AUTH_ATTEMPTS } from "../modules/sessions/session-sockets.js";
import { hashToken } from "../modules/sessions/tokens.js";
import { createUser, loginAs } from "../test/factories.js";
import { TestSocket } from "../test/socket-client.js";
import { createTestApp, type TestApp } from "../test/test-app.js";

type UserCount = { count: number; users: OnlineUser[] };
type User = Awaited<ReturnType<typeof createUser>>;

const AUTH_TIMEOUT_MS = 1500;
let t: TestApp;
let url: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ SOCKET_AUTH_TIMEOUT_MS: AUTH_TIMEOUT_MS });
  url = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  // Let the server see those sockets leave before the next test counts users.
  await waitUntil(async () => (await t.app.io.fetchSockets()).length === 0);
});
afterAll(async () => {
  await t?.close();
});

async function waitUntil(check: () => Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A user, signed in over HTTP. */
async function user(role: Role = "inventory"): Promise<User> {
  const u = await createUser(t.app.db, { role });
  await cookieOf(u);
  return u;
}

const cookies = new Map<number, string>();
/** Signs in over HTTP once per user and returns the session cookie. */
async function cookieOf(u: User): Promise<string> {
  let cookie = cookies.get(u.id);
  if (!cookie) {
    cookie = await loginAs(t.app, u.username);
    cookies.set(u.id, cookie);
  }
  return cookie;
}

/** A socket token from GET /api/auth/socket-token, as the client gets it. */
async function tokenFor(u: User): Promise<string> {
  const res = await t.app.inject({ method: "GET", url: "/api/auth/socket-token", headers: { cookie: await cookieOf(u) } });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}

async function connect(): Promise<TestSocket> {
  const s = new TestSocket(url);
  open.push(s);
  return s.connected();
}

/** A connected socket authenticated as `u`. */
async function online(u: User): Promise<TestSocket> {
  // The token first: the unauthenticated-socket timeout runs from the connection on.
  const token = await tokenFor(u);
  const s = await connect();
  s.authenticate(token);
  await s.next("authenticated");
  return s;
}

const countIs = (n: number) => (p: UserCount) => p.count === n;

describe("authentication", () => {
  it("accepts a fresh token and answers with the user", async () => {
    const u = await user("manager");
    const token = await tokenFor(u);
    const s = await connect();
    s.authenticate(token);
    expect(await s.next("authenticated")).toEqual({ user: { id: u.id, username: u.username, role: "manager" } });
    expect(s.names).not.toContain("auth_error");
  });

  it("refuses a token used before, unknown tokens and malformed payloads with invalid_token", async () => {
    const u = await user();
    const token = await tokenFor(u);
    const first = await connect();
    first.authenticate(token);
    await first.next("authenticated");

    const second = await connect();
    second.authenticate(token);
    expect(await second.next("auth_error")).toEqual({ message: expect.any(String), reason: "invalid_token" });

    const third = await connect();
    third.authenticate("not-a-token");
    await third.next("auth_error", (p: { reason: string }) => p.reason === "invalid_token");
    third.socket.emit("authenticate", { token: 42 } as unknown as { token: string });
    await third.next("auth_error", () => true, third.received.findIndex((r) => r.event === "auth_error") + 1);
    expect(third.names).not.toContain("authenticated");
  });

  it("refuses an expired token with expired_token", async () => {
    const u = await user();
    const token = await tokenFor(u);
    await t.app.db
      .update(socketTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(socketTokens.tokenHash, hashToken(token)));
    const s = await connect();
    s.authenticate(token);
    expect(await s.next("auth_error")).toEqual({ message: expect.any(String), reason: "expired_token" });
    // Used up as well: the same token never works later.
    const again = await connect();
    again.authenticate(token);
    expect(await again.next("auth_error")).toMatchObject({ reason: "invalid_token" });
  });

  it("refuses a disabled account with account_disabled", async () => {
    const u = await user();
    const token = await tokenFor(u);
    await t.app.db.update(users).set({ isActive: false }).where(eq(users.id, u.id));
    const s = await connect();
    s.authenticate(token);
    expect(await s.next("auth_error")).toEqual({ message: "Your account has been disabled", reason: "account_disabled" });
    expect(s.names).not.toContain("authenticated");
  });

  it("lets a refused socket try again with a new token", async () => {
    const u = await user();
    const token = await tokenFor(u);
    const s = await connect();
    s.authenticate("stale");
    await s.next("auth_error");
    s.authenticate(token);
    expect(await s.next("authenticated")).toMatchObject({ user: { id: u.id } });
  });

  it("drops a socket after too many failed attempts", async () => {
    const s = await connect();
    for (let i = 0; i < MAX_AUTH_ATTEMPTS; i++) {
      s.authenticate(`guess-${i}`);
      await s.next("auth_error", () => s.names.filter((n) => n === "auth_error").length > i);
    }
    s.authenticate("one-more");
    expect(await s.next("disconnect")).toBe("io server disconnect");
    expect(s.names.filter((n) => n === "auth_error")).toHaveLength(MAX_AUTH_ATTEMPTS);
  });

  it("upgrades from polling to websocket", async () => {
    const s = await online(await user());
    await s.next("upgrade");
    expect(s.socket.io.engine.transport.name).toBe("websocket");
  });
});

describe("unauthenticated sockets", () => {
  it("receive no inventory or presence events and are dropped after the timeout", async () => {
    const [first, second] = [await user(), await user()];
    const stranger = await connect();
    const member = await online(first);
    await member.next<UserCount>("user_count", countIs(1));
    t.app.events.emit("inventory_update", {
      type: "quantity_changed",
      data: { id: 1, product_name: "Card", updated_by: "someone", quantity_change: -1, quantity_on_hand: 4 },
      timestamp: new Date().toISOString(),
      userId: 1,
    });
    await member.next("inventory_update");
    // Presence changes while the stranger waits.
    const other = await online(second);
    await member.next<UserCount>("user_count", countIs(2));
    other.close();
    await member.next<UserCount>(
      "user_count",
      countIs(1),
      member.received.findIndex((r) => r.event === "user_count" && (r.payload as UserCount).count === 2),
    );

    expect(await stranger.next("disconnect")).toBe("io server disconnect");
    // Nothing but the connection's own events.
    expect(stranger.names.filter((n) => !["connect", "upgrade", "disconnect"].includes(n))).toEqual([]);
    // The authenticated socket outlived the stranger's timeout.
    expect(member.socket.connected).toBe(true);
  });

  it("an authenticated socket is not dropped by the timeout", async () => {
    const s = await online(await user());
    const stranger = await connect();
    await stranger.next("disconnect");
    expect(s.socket.connected).toBe(true);
    expect(s.names).not.toContain("disconnect");
  });
});

describe("presence", () => {
  it("counts users, not tabs, and tells every authenticated socket with usernames and roles", async () => {
    const alice = await user("manager");
    const bob = await user("streamer");
    const tab1 = await online(alice);
    expect(await tab1.next<UserCount>("user_count")).toEqual({ count: 1, users: [{ username: alice.username, role: "manager" }] });
    const tab2 = await online(alice);
    expect(await tab2.next<UserCount>("user_count")).toEqual({ count: 1, users: [{ username: alice.username, role: "manager" }] });

    const bobSocket = await online(bob);
    const both = [
      { username: alice.username, role: "manager" },
      { username: bob.username, role: "streamer" },
    ].sort((a, b) => a.username.localeCompare(b.username));
    for (const s of [tab1, tab2, bobSocket]) {
      expect(await s.next<UserCount>("user_count", countIs(2))).toEqual({ count: 2, users: both });
    }

    // Closing one of two tabs changes nothing; closing bob's only tab does.
    tab2.close();
    bobSocket.close();
    expect(
      await tab1.next<UserCount>(
        "user_count",
        countIs(1),
        tab1.received.findIndex((r) => r.event === "user_count" && (r.payload as UserCount).count === 2),
      ),
    ).toEqual({
      count: 1,
      users: [{ username: alice.username, role: "manager" }],
    });
  });
});

describe("inventory_update", () => {
  it("reaches every authenticated socket, and only those", async () => {
    const a = await online(await user());
    const b = await online(await user("streamer"));
    const stranger = await connect();
    const event: InventoryUpdate = {
      type: "products_imported",
      data: { updated_by: "importer", count: 3 },
      timestamp: new Date().toISOString(),
      userId: 7,
    };
    t.app.events.emit("inventory_update", event);
    expect(await a.next("inventory_update")).toEqual(event);
    expect(await b.next("inventory_update")).toEqual(event);
    await stranger.next("disconnect");
    expect(stranger.names).not.toContain("inventory_update");
  });

  it("carries a real stock change made through the products API", async () => {
    const manager = await user("manager");
    const cookie = await cookieOf(manager);
    const watcher = await online(await user("streamer"));
    const created = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: { cookie },
      payload: { barcode: "RT-1", product_name: "Live Card", vendor: "Topps", release_year: 2024, quantity_on_hand: 3 },
    });
    expect(created.statusCode).toBe(201);
    const product = created.json<Product>();
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/products/${product.id}/quantity`,
      headers: { cookie },
      payload: { quantity_change: -1, reason: "sold" },
    });
    expect(res.statusCode).toBe(200);
    const update = await watcher.next<InventoryUpdate>("inventory_update", (e) => e.type === "quantity_changed");
    expect(update).toMatchObject({
      type: "quantity_changed",
      userId: manager.id,
      data: { id: product.id, product_name: "Live Card", updated_by: manager.username, quantity_change: -1, quantity_on_hand: 2 },
    });
  });
});

describe("revoked accounts", () => {
  it("disabling a user through the API tells their sockets why and disconnects all of them, leaving others connected", async () => {
    const admin = await user("manager");
    const target = await user();
    const tab1 = await online(target);
    const tab2 = await online(target);
    const adminSocket = await online(admin);
    await adminSocket.next<UserCount>("user_count", countIs(2));

    const res = await t.app.inject({
      method: "PUT",
      url: `/api/auth/users/${target.id}/status`,
      headers: { cookie: await cookieOf(admin) },
      payload: { is_active: false },
    });
    expect(res.statusCode).toBe(200);
    for (const s of [tab1, tab2]) {
      expect(await s.next("auth_error")).toEqual({ message: "Your account has been disabled", reason: "account_disabled" });
      expect(await s.next("disconnect")).toBe("io server disconnect");
    }
    const afterTwo = adminSocket.received.findIndex((r) => r.event === "user_count" && (r.payload as UserCount).count === 2);
    expect(await adminSocket.next<UserCount>("user_count", countIs(1), afterTwo)).toEqual({
      count: 1,
      users: [{ username: admin.username, role: "manager" }],
    });
    expect(adminSocket.socket.connected).toBe(true);
  });

  it("a password reset through the API disconnects the user's sockets without an auth_error", async () => {
    const admin = await user("manager");
    const target = await user();
    const s = await online(target);
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/auth/users/${target.id}/password`,
      headers: { cookie: await cookieOf(admin) },
      payload: { newPassword: "another-long-password" },
    });
    expect(res.statusCode).toBe(200);
    expect(await s.next("disconnect")).toBe("io server disconnect");
    expect(s.names).not.toContain("auth_error");
  });

  it("a user_revoked event on the app's bus drops only that user's sockets", async () => {
    const target = await user();
    const bystander = await user();
    const s = await online(target);
    const other = await online(bystander);
    t.app.events.emit("user_revoked", { userId: target.id, reason: "account_disabled" });
    expect(await s.next("disconnect")).toBe("io server disconnect");
    expect(other.socket.connected).toBe(true);
    expect(other.names).not.toContain("auth_error");
  });
});

describe("shutdown", () => {
  it("an app closed right after it started ends its database (the adapter's LISTEN connection is given back)", async () => {
    const quick = await createTestApp();
    const { pool } = quick.database;
    await quick.app.close();
    // Every connection the app took is back in the pool, the adapter's LISTEN one (PostgreSQL) included:
    // one still checked out would keep the pool, and so the database, from ending.
    expect(pool.totalCount - pool.idleCount).toBe(0);
    expect(pool.waitingCount).toBe(0);
    await quick.close();
    expect(pool.ended).toBe(true);
    expect(pool.totalCount).toBe(0);
    await expect(pool.query("select 1")).rejects.toThrow();
  }, 90_000);

  it("closes promptly with polling and websocket clients connected", async () => {
    const other = await createTestApp({ SOCKET_AUTH_TIMEOUT_MS: 60_000 });
    const otherUrl = await other.app.listen({ port: 0, host: "127.0.0.1" });
    const polling = new TestSocket(otherUrl, { transports: ["polling"] });
    await polling.connected();
    const upgraded = new TestSocket(otherUrl);
    await upgraded.connected();
    const cookie = await loginAs(other.app, (await createUser(other.app.db)).username);
    const token = await other.app.inject({ method: "GET", url: "/api/auth/socket-token", headers: { cookie } });
    upgraded.authenticate(token.json<{ token: string }>().token);
    await upgraded.next("authenticated");
    await upgraded.next("upgrade");
    await other.close();
    expect(await polling.next("disconnect")).toBeTruthy();
    expect(await upgraded.next("disconnect")).toBeTruthy();
  }, 90_000);
});
