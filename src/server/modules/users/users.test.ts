import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../../contract/permissions.js";
import { MESSAGES } from "../../../contract/rules.js";
import { sessions, socketTokens, users } from "../../db/schema.js";
import type { ServerEvents } from "../../events.js";
import { testConfig } from "../../test/config.js";
import { createUser, loginAs, signedIn, TEST_PASSWORD, uniqueName } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { hashToken } from "../sessions/tokens.js";
import { ensureFirstAdmin } from "./bootstrap.js";

/** For tests that open a second database: its migrations alone can take a while on a busy machine. */
const SECOND_APP = { timeout: 120_000 };

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROTECTED = "This account is protected and can only be modified by other super administrators.";

let t: TestApp;
const cookies = {} as Record<Role, string>;
const ids = {} as Record<Role, number>;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ["super_admin", "manager", "inventory", "streamer"] as const) {
    const s = await signedIn(t.app, role);
    cookies[role] = s.cookie;
    ids[role] = s.user.id;
  }
});
afterAll(async () => {
  await t?.close();
});

function call(method: "GET" | "POST" | "PUT", url: string, cookie: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
}
const me = (cookie: string) => call("GET", "/api/auth/me", cookie);
const login = (username: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password } });

/** user_revoked events raised on the app's bus until stop(). */
function recordRevocations(app: FastifyInstance) {
  const events: ServerEvents["user_revoked"][0][] = [];
  const listener = (e: ServerEvents["user_revoked"][0]) => events.push(e);
  app.events.on("user_revoked", listener);
  return { events, stop: () => app.events.off("user_revoked", listener) };
}

describe("signed out", () => {
  it("answers 401 on every users route, before validating input", async () => {
    for (const [method, url] of [
      ["GET", "/api/auth/users"],
      ["POST", "/api/auth/users"],
      ["PUT", "/api/auth/users/1/status"],
      ["PUT", "/api/auth/users/abc/password"],
    ] as const) {
      const res = await call(method, url, "", method === "GET" ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });
});

describe("GET /api/auth/users", () => {
  it("lists every user without password hashes for managers and super_admins", async () => {
    for (const role of ["manager", "super_admin"] as const) {
      const res = await call("GET", "/api/auth/users", cookies[role]);
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(Array.isArray(list)).toBe(true);
      const rows = await t.app.db.select().from(users);
      expect(list).toHaveLength(rows.length);
      for (const u of list) {
        expect(Object.keys(u).sort()).toEqual(["created_at", "id", "is_active", "role", "username"]);
        expect(u.created_at).toMatch(ISO_UTC);
      }
      expect(JSON.stringify(list)).not.toContain("argon2");
    }
  });

  it("answers 403 to inventory and streamer", async () => {
    for (const role of ["inventory", "streamer"] as const) {
      expect((await call("GET", "/api/auth/users", cookies[role])).statusCode).toBe(403);
    }
  });
});

describe("POST /api/auth/users", () => {
  it("creates a user (201) who can then sign in; role defaults to streamer", async () => {
    const username = uniqueName("new");
    const res = await call("POST", "/api/auth/users", cookies.manager, { username, password: "secret1", role: "inventory" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      username,
      role: "inventory",
      is_active: true,
      created_at: expect.stringMatching(ISO_UTC),
    });
    expect((await login(username, "secret1")).statusCode).toBe(200);

    const plain = await call("POST", "/api/auth/users", cookies.manager, { username: uniqueName("plain"), password: "secret1" });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().role).toBe("streamer");
  });

  it("stores an argon2id hash, never the password", async () => {
    const username = uniqueName("hashed");
    await call("POST", "/api/auth/users", cookies.manager, { username, password: "plain-text-secret" });
    const [row] = await t.app.db.select().from(users).where(eq(users.username, username));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain("plain-text-secret");
  });

  it("answers 409 for a username taken in any letter case", async () => {
    const username = uniqueName("Taken");
    expect((await call("POST", "/api/auth/users", cookies.manager, { username, password: "secret1" })).statusCode).toBe(201);
    for (const variant of [username, username.toUpperCase(), username.toLowerCase(), ` ${username} `]) {
      const res = await call("POST", "/api/auth/users", cookies.manager, { username: variant, password: "secret1" });
      expect(res.statusCode, variant).toBe(409);
      expect(res.json()).toEqual({ error: MESSAGES.usernameTaken });
    }
  });

  it("lets only one of many simultaneous creates of one name win", async () => {
    const username = uniqueName("race");
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call("POST", "/api/auth/users", cookies.manager, { username: i % 2 ? username.toUpperCase() : username, password: "secret1" }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it("answers 400 for invalid input", async () => {
    const ok = { username: uniqueName("valid"), password: "secret1", role: "streamer" };
    const cases: unknown[] = [
      { ...ok, username: "ab" },
      { ...ok, username: "a".repeat(51) },
      { ...ok, username: "has space" },
      { ...ok, username: "semi;colon" },
      { ...ok, username: "" },
      { ...ok, username: 123 },
      { ...ok, password: "12345" },
      { ...ok, password: "" },
      { ...ok, password: 123456 },
      { ...ok, role: "owner" },
      { username: ok.username },
      { password: ok.password },
      [],
    ];
    for (const body of cases) {
      const res = await call("POST", "/api/auth/users", cookies.super_admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    const short = await call("POST", "/api/auth/users", cookies.super_admin, { ...ok, password: "12345" });
    expect(short.json().error).toBe(MESSAGES.passwordTooShort);
    expect(await t.app.db.select().from(users).where(eq(users.username, ok.username))).toHaveLength(0);
  });

  it("lets only a super_admin create a super_admin", async () => {
    const byManager = await call("POST", "/api/auth/users", cookies.manager, {
      username: uniqueName("boss"),
      password: "secret1",
      role: "super_admin",
    });
    expect(byManager.statusCode).toBe(403);
    const bySuper = await call("POST", "/api/auth/users", cookies.super_admin, {
      username: uniqueName("boss"),
      password: "secret1",
      role: "super_admin",
    });
    expect(bySuper.statusCode).toBe(201);
    expect(bySuper.json().role).toBe("super_admin");
    for (const role of ["manager", "inventory", "streamer"] as const) {
      const res = await call("POST", "/api/auth/users", cookies.super_admin, { username: uniqueName(role), password: "secret1", role });
      expect(res.statusCode).toBe(201);
    }
  });

  it("answers 403 to inventory and streamer", async () => {
    for (const role of ["inventory", "streamer"] as const) {
      const res = await call("POST", "/api/auth/users", cookies[role], { username: uniqueName("x"), password: "secret1" });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe("PUT /api/auth/users/{id}/status", () => {
  it("disabling ends the user's sessions at once and raises user_revoked after commit; enabling lets them back in", async () => {
    const target = await createUser(t.app.db, { role: "inventory" });
    const cookie = await loginAs(t.app, target.username);
    const token = (await call("GET", "/api/auth/socket-token", cookie)).json<{ token: string }>().token;
    const unusedToken = () =>
      t.app.db
        .select()
        .from(socketTokens)
        .where(eq(socketTokens.tokenHash, hashToken(token)));
    expect(await unusedToken()).toHaveLength(1);
    expect((await me(cookie)).statusCode).toBe(200);
    const rec = recordRevocations(t.app);
    const res = await call("PUT", `/api/auth/users/${target.id}/status`, cookies.manager, { is_active: false });
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: target.id,
      username: target.username,
      role: "inventory",
      is_active: false,
      created_at: target.createdAt.toISOString(),
    });
    expect(rec.events).toEqual([{ userId: target.id, reason: "account_disabled" }]);
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
    expect(await unusedToken()).toHaveLength(0);
    expect((await login(target.username, TEST_PASSWORD)).statusCode).toBe(403);

    const enabled = await call("PUT", `/api/auth/users/${target.id}/status`, cookies.manager, { is_active: true });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().is_active).toBe(true);
    expect((await login(target.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("refuses to disable the caller's own account with 400", async () => {
    for (const role of ["manager", "super_admin"] as const) {
      const res = await call("PUT", `/api/auth/users/${ids[role]}/status`, cookies[role], { is_active: false });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: "You cannot disable your own account" });
      expect((await me(cookies[role])).statusCode).toBe(200);
    }
  });

  it("protects super_admins from everyone but super_admins", async () => {
    const boss = await createUser(t.app.db, { role: "super_admin" });
    const rec = recordRevocations(t.app);
    const byManager = await call("PUT", `/api/auth/users/${boss.id}/status`, cookies.manager, { is_active: false });
    expect(byManager.statusCode).toBe(403);
    expect(byManager.json()).toEqual({ error: PROTECTED });
    expect(rec.events).toEqual([]);
    const [still] = await t.app.db.select().from(users).where(eq(users.id, boss.id));
    expect(still?.isActive).toBe(true);
    const bySuper = await call("PUT", `/api/auth/users/${boss.id}/status`, cookies.super_admin, { is_active: false });
    rec.stop();
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().is_active).toBe(false);
  });

  it("lets a manager disable another manager", async () => {
    const other = await createUser(t.app.db, { role: "manager" });
    const res = await call("PUT", `/api/auth/users/${other.id}/status`, cookies.manager, { is_active: false });
    expect(res.statusCode).toBe(200);
  });

  it("answers 403 to inventory and streamer, and changes nothing", async () => {
    const target = await createUser(t.app.db);
    for (const role of ["inventory", "streamer"] as const) {
      expect((await call("PUT", `/api/auth/users/${target.id}/status`, cookies[role], { is_active: false })).statusCode).toBe(403);
    }
    const [row] = await t.app.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.isActive).toBe(true);
  });

  it("answers 404 for unknown ids and 400 for ids or bodies that are not valid", async () => {
    for (const id of ["999999", "2147483647"]) {
      const res = await call("PUT", `/api/auth/users/${id}/status`, cookies.manager, { is_active: false });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: "User not found" });
    }
    // Ids are PostgreSQL integers: anything above 2147483647 is not an id at all.
    for (const id of ["abc", "0", "-1", "1.5", "1e400", "%20", "99999999999999999999", "2147483648", "9007199254740991"]) {
      const res = await call("PUT", `/api/auth/users/${id}/status`, cookies.manager, { is_active: false });
      expect(res.statusCode, id).toBe(400);
    }
    const target = await createUser(t.app.db);
    for (const body of [{}, { is_active: "false" }, { is_active: 0 }, { is_active: null }, []]) {
      const res = await call("PUT", `/api/auth/users/${target.id}/status`, cookies.manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("PUT /api/auth/users/{id}/password", () => {
  it("sets the password, ends the user's sessions, raises user_revoked; the old password is refused, the new one accepted", async () => {
    const target = await createUser(t.app.db, { role: "streamer" });
    const cookie = await loginAs(t.app, target.username);
    const rec = recordRevocations(t.app);
    const res = await call("PUT", `/api/auth/users/${target.id}/password`, cookies.manager, { newPassword: "brand-new-pass" });
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(rec.events).toEqual([{ userId: target.id, reason: "password_reset" }]);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await login(target.username, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(target.username, "brand-new-pass")).statusCode).toBe(200);
  });

  it("answers 400 for a password under 6 characters or missing, and changes nothing", async () => {
    const target = await createUser(t.app.db);
    const [before] = await t.app.db.select().from(users).where(eq(users.id, target.id));
    for (const body of [{ newPassword: "12345" }, { newPassword: "" }, {}, { newPassword: 123456 }, { password: "123456" }]) {
      const res = await call("PUT", `/api/auth/users/${target.id}/password`, cookies.manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const short = await call("PUT", `/api/auth/users/${target.id}/password`, cookies.manager, { newPassword: "12345" });
    expect(short.json().error).toBe(MESSAGES.passwordTooShort);
    const [after] = await t.app.db.select().from(users).where(eq(users.id, target.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
  });

  it("protects super_admins from everyone but super_admins", async () => {
    const boss = await createUser(t.app.db, { role: "super_admin" });
    const bossCookie = await loginAs(t.app, boss.username);
    const byManager = await call("PUT", `/api/auth/users/${boss.id}/password`, cookies.manager, { newPassword: "taken-over" });
    expect(byManager.statusCode).toBe(403);
    expect(byManager.json()).toEqual({ error: PROTECTED });
    expect((await me(bossCookie)).statusCode).toBe(200);
    expect((await login(boss.username, "taken-over")).statusCode).toBe(401);
    const bySuper = await call("PUT", `/api/auth/users/${boss.id}/password`, cookies.super_admin, { newPassword: "reset-by-peer" });
    expect(bySuper.statusCode).toBe(200);
    expect((await login(boss.username, "reset-by-peer")).statusCode).toBe(200);
  });

  it("answers 403 to inventory and streamer, 404 for unknown ids, 400 for invalid ids", async () => {
    const target = await createUser(t.app.db);
    for (const role of ["inventory", "streamer"] as const) {
      const res = await call("PUT", `/api/auth/users/${target.id}/password`, cookies[role], { newPassword: "whatever1" });
      expect(res.statusCode).toBe(403);
    }
    expect((await call("PUT", "/api/auth/users/999999/password", cookies.manager, { newPassword: "whatever1" })).statusCode).toBe(404);
    expect((await call("PUT", "/api/auth/users/abc/password", cookies.manager, { newPassword: "whatever1" })).statusCode).toBe(400);
  });
});

describe("ensureFirstAdmin", () => {
  const quietLog = () => {
    const lines: string[] = [];
    const log = {
      info: (...args: unknown[]) => void lines.push(JSON.stringify(args)),
      warn: (...args: unknown[]) => void lines.push(JSON.stringify(args)),
    };
    return { log: log as never, lines };
  };

  it("generates the password, prints it once (never logs it); a second call does nothing", SECOND_APP, async () => {
    const fresh = await createTestApp();
    try {
      const printed: string[] = [];
      const { log, lines } = quietLog();
      const config = testConfig({ ADMIN_USERNAME: "owner", ADMIN_PASSWORD: undefined });
      const result = await ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text));
      expect(result.created).toBe(true);
      const password = result.generatedPassword ?? "";
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain("username: owner");
      expect(printed[0]).toContain(`password: ${password}`);
      expect(lines.join("\n")).not.toContain(password);

      const [row] = await fresh.app.db.select().from(users);
      expect(row?.role).toBe("super_admin");
      expect(row?.passwordHash).not.toContain(password);
      const res = await fresh.app.inject({ method: "POST", url: "/api/auth/login", payload: { username: "owner", password } });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.role).toBe("super_admin");

      const again = await ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text));
      expect(again).toEqual({ created: false });
      expect(printed).toHaveLength(1);
      expect(await fresh.app.db.select().from(users)).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it("uses ADMIN_PASSWORD when set and prints nothing; two starts at once create one admin", SECOND_APP, async () => {
    const fresh = await createTestApp();
    try {
      const printed: string[] = [];
      const { log } = quietLog();
      const config = testConfig({ ADMIN_USERNAME: "chief", ADMIN_PASSWORD: "configured-secret" });
      const results = await Promise.all([
        ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text)),
        ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text)),
      ]);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(printed).toEqual([]);
      const rows = await fresh.app.db.select().from(users);
      expect(rows).toHaveLength(1);
      const res = await fresh.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: "chief", password: "configured-secret" },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("two starts at once print exactly one generated password, the one that works", SECOND_APP, async () => {
    const fresh = await createTestApp();
    try {
      const printed: string[] = [];
      const { log } = quietLog();
      const config = testConfig({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD: undefined });
      const results = await Promise.all([
        ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text)),
        ensureFirstAdmin(fresh.app.db, config, log, (text) => printed.push(text)),
      ]);
      const winner = results.find((r) => r.created);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain(winner?.generatedPassword);
      const [{ n } = { n: 0 }] = await fresh.app.db.select({ n: sql<number>`count(*)::int` }).from(users);
      expect(Number(n)).toBe(1);
      const res = await fresh.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: "admin", password: winner?.generatedPassword },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
