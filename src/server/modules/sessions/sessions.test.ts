import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { sessions, socketTokens } from "../../db/schema.js";
import { testConfig } from "../../test/config.js";
import { createUser, loginAs, TEST_PASSWORD } from "../../test/factories.js";
import { TestSocket } from "../../test/socket-client.js";
import { createTestApp, createTestDatabase, type TestApp } from "../../test/test-app.js";
import { hashToken } from "./tokens.js";

/** For tests that open a second database: its migrations alone can take a while on a busy machine. */
const SECOND_APP = { timeout: 120_000 };

let t: TestApp;
let url: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  // A long cache lifetime: what the tests see of the cache never depends on how fast they run.
  t = await createTestApp({ SESSION_CACHE_MS: 10 * 60_000 });
  url = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, cookie: string, app = t.app) => app.inject({ method: "GET", url: path, headers: { cookie } });
const logout = (cookie: string, app = t.app) => app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
const sessionCookie = (res: { cookies: Array<{ name: string; value: string; maxAge?: number; secure?: boolean }> }) =>
  res.cookies.find((c) => c.name === "blez_session");
const sessionsOf = (userId: number) => t.app.db.select().from(sessions).where(eq(sessions.userId, userId));

async function socketToken(cookie: string, app = t.app): Promise<string> {
  const res = await get("/api/auth/socket-token", cookie, app);
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}

/** A socket authenticated with a token fetched through `cookie`'s session. */
async function online(cookie: string, app = t.app, at = url): Promise<TestSocket> {
  const token = await socketToken(cookie, app);
  const s = new TestSocket(at);
  open.push(s);
  await s.connected();
  s.authenticate(token);
  await s.next("authenticated");
  return s;
}

describe("socket tokens", () => {
  it("are single-use, stored only as a hash, and bound to the session that fetched them", async () => {
    const user = await createUser(t.app.db, { role: "streamer" });
    const cookie = await loginAs(t.app, user.username);
    const token = await socketToken(cookie);
    const [session] = await sessionsOf(user.id);
    const [row] = await t.app.db
      .select()
      .from(socketTokens)
      .where(eq(socketTokens.tokenHash, hashToken(token)));
    expect(row?.sessionId).toBe(session?.id);
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await t.app.sessions.authenticateSocket({ token })).toEqual({
      id: session?.id,
      actor: { id: user.id, username: user.username, role: "streamer" },
      expiresAt: session?.expiresAt,
    });
    expect(await t.app.sessions.authenticateSocket({ token })).toEqual({ reason: "invalid_token" });
  });

  it("fetched before sign-out are refused after it; another session's tokens still work", async () => {
    const user = await createUser(t.app.db);
    const tab = await loginAs(t.app, user.username);
    const phone = await loginAs(t.app, user.username);
    const stale = await socketToken(tab);
    const other = await socketToken(phone);
    expect((await logout(tab)).statusCode).toBe(200);

    const s = new TestSocket(url);
    open.push(s);
    await s.connected();
    s.authenticate(stale);
    expect(await s.next("auth_error")).toEqual({ message: expect.any(String), reason: "invalid_token" });
    s.authenticate(other);
    expect(await s.next("authenticated")).toEqual({ user: { id: user.id, username: user.username, role: user.role } });
  });
});

describe("ended sessions close their sockets", () => {
  it("sign-out closes the sockets authenticated through that session, and only those", async () => {
    const user = await createUser(t.app.db);
    const tab = await loginAs(t.app, user.username);
    const phone = await loginAs(t.app, user.username);
    const [tabSocket, secondTabSocket, phoneSocket] = [await online(tab), await online(tab), await online(phone)];

    expect((await logout(tab)).statusCode).toBe(200);
    expect(await tabSocket.next("disconnect")).toBe("io server disconnect");
    expect(await secondTabSocket.next("disconnect")).toBe("io server disconnect");
    expect(tabSocket.names).not.toContain("auth_error");

    // The phone's session lives on, and its socket still hears inventory events.
    t.app.events.emit("inventory_update", {
      type: "products_imported",
      data: { updated_by: "someone", count: 1 },
      timestamp: new Date().toISOString(),
      userId: 1,
    });
    await phoneSocket.next("inventory_update");
    expect(phoneSocket.socket.connected).toBe(true);
    expect((await get("/api/auth/me", phone)).statusCode).toBe(200);
    expect((await get("/api/auth/me", tab)).statusCode).toBe(401);
  });

  it("expiry closes the session's sockets; requests that keep the session alive keep them open", SECOND_APP, async () => {
    // Sessions that expire after 2 idle seconds.
    const short = await createTestApp({ SESSION_TTL_HOURS: 2 / 3600 });
    try {
      const shortUrl = await short.app.listen({ port: 0, host: "127.0.0.1" });
      const user = await createUser(short.app.db);
      const cookie = await loginAs(short.app, user.username);
      const s = await online(cookie, short.app, shortUrl);
      // Six seconds of requests, each sliding the deadline.
      for (let i = 0; i < 20; i++) {
        expect((await get("/api/auth/me", cookie, short.app)).statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(s.socket.connected).toBe(true);
      expect(s.names).not.toContain("disconnect");
      // Then idle: the session expires and its socket is closed.
      expect(await s.next("disconnect")).toBe("io server disconnect");
      expect((await get("/api/auth/me", cookie, short.app)).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe("the session cache", () => {
  it("answers from memory for a validated session, and forgets it at once on sign-out", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(200);
    // The database now calls the session expired; this process validated it a moment ago.
    await t.app.db.update(sessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(sessions.userId, user.id));
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(200);
    expect((await logout(cookie)).statusCode).toBe(200);
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(401);
  });

  it("forgets a user's sessions at once when the user is disabled or their password reset", async () => {
    const manager = await loginAs(t.app, (await createUser(t.app.db, { role: "manager" })).username);
    const disabled = await createUser(t.app.db);
    const reset = await createUser(t.app.db);
    const cookies = [await loginAs(t.app, disabled.username), await loginAs(t.app, reset.username)];
    for (const cookie of cookies) expect((await get("/api/auth/me", cookie)).statusCode).toBe(200);
    const put = (path: string, payload: object) => t.app.inject({ method: "PUT", url: path, headers: { cookie: manager }, payload });
    expect((await put(`/api/auth/users/${disabled.id}/status`, { is_active: false })).statusCode).toBe(200);
    expect((await put(`/api/auth/users/${reset.id}/password`, { newPassword: "a-new-password" })).statusCode).toBe(200);
    for (const cookie of cookies) expect((await get("/api/auth/me", cookie)).statusCode).toBe(401);
  });

  it("never uses a session past its deadline", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    await t.app.db
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '1 second'`, lastSeenAt: sql`now()` })
      .where(eq(sessions.userId, user.id));
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(401);
  });

  it("keeps the sliding expiry: a request pushes the idle deadline out by SESSION_TTL_HOURS and refreshes the cookie", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    // As if the last request was 10 minutes ago and the session had 5 minutes left.
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '10 minutes'`, expiresAt: sql`now() + interval '5 minutes'` })
      .where(eq(sessions.userId, user.id));
    const res = await get("/api/auth/me", cookie);
    expect(res.statusCode).toBe(200);
    const [row] = await sessionsOf(user.id);
    const left = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(left).toBeGreaterThan(11 * 3_600_000);
    expect(left).toBeLessThanOrEqual(12 * 3_600_000);
    const refreshed = sessionCookie(res);
    expect(refreshed?.value).toBe(cookie.split("=")[1]);
    expect(refreshed?.maxAge).toBe(12 * 3600);
    // The next request within the minute writes nothing and sends no cookie.
    expect(sessionCookie(await get("/api/auth/me", cookie))).toBeUndefined();
  });

  it("refuses a session whose user was disabled behind the API's back on its next lookup", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    await t.app.db.execute(sql`update users set is_active = false where id = ${user.id}`);
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(401);
  });
});

describe("configuration", () => {
  it("follows SESSION_TTL_HOURS and COOKIE_SECURE", SECOND_APP, async () => {
    // Only the configuration matters here: a second app on a database of its own.
    const { database, drop } = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ SESSION_TTL_HOURS: 0.5, COOKIE_SECURE: true }), database, serveClient: false });
    try {
      const user = await createUser(app.db);
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: user.username, password: TEST_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const cookie = sessionCookie(res);
      expect(cookie?.secure).toBe(true);
      expect(cookie?.maxAge).toBe(1800);
      const [row] = await app.db.select().from(sessions).where(eq(sessions.userId, user.id));
      const left = (row?.expiresAt.getTime() ?? 0) - Date.now();
      expect(left).toBeGreaterThan(25 * 60_000);
      expect(left).toBeLessThanOrEqual(30 * 60_000);
      const out = await app.inject({ method: "POST", url: "/api/auth/logout" });
      expect(sessionCookie(out)?.secure).toBe(true);
    } finally {
      await app.close();
      await database.close();
      await drop();
    }
  });
});
