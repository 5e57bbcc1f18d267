import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_PERMISSIONS, ROLES } from "../../../contract/permissions.js";
import { MESSAGES } from "../../../contract/rules.js";
import { sessions } from "../../db/schema.js";
import { createUser, loginAs, TEST_PASSWORD, uniqueName } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { hashToken } from "../sessions/tokens.js";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestApp;
let ipSeq = 0;
/** Tests that fail sign-ins do so from their own address, so they never share a throttle counter. */
const newIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function login(body: unknown, opts: Partial<InjectOptions> = {}) {
  return t.app.inject({ method: "POST", url: "/api/auth/login", payload: body as object, ...opts });
}
const get = (url: string, cookie = "") => t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
interface SetCookie {
  name: string;
  value: string;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
  path?: string;
  maxAge?: number;
  expires?: Date;
}
const sessionCookie = (res: { cookies: object[] }) => (res.cookies as SetCookie[]).find((c) => c.name === "blez_session");

describe("POST /api/auth/login", () => {
  it("answers 200 {success, user} with an HttpOnly, SameSite=Lax session cookie and stores only a hash", async () => {
    const user = await createUser(t.app.db, { role: "inventory" });
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      user: { id: user.id, username: user.username, role: "inventory", is_active: true, created_at: expect.stringMatching(ISO_UTC) },
    });
    expect(JSON.stringify(body)).not.toMatch(/password/i);

    const cookie = sessionCookie(res);
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.path).toBe("/");
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.maxAge).toBe(12 * 3600);
    expect(cookie?.value.length).toBeGreaterThanOrEqual(40);

    const rows = await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashToken(cookie?.value ?? ""));
    expect(rows[0]?.tokenHash).not.toContain(cookie?.value);
  });

  it("accepts the username in any letter case and surrounding spaces", async () => {
    const user = await createUser(t.app.db, { username: uniqueName("MixedCase") });
    const res = await login({ username: `  ${user.username.toUpperCase()} `, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe(user.username);
  });

  it("answers 401 with the same body for an unknown user and a wrong password", async () => {
    const user = await createUser(t.app.db);
    const wrong = await login({ username: user.username, password: "not-the-password" }, { remoteAddress: newIp() });
    const unknown = await login({ username: uniqueName("nobody"), password: TEST_PASSWORD }, { remoteAddress: newIp() });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, error: MESSAGES.invalidCredentials });
      expect(sessionCookie(res)).toBeUndefined();
    }
  });

  it("answers 400 for missing or wrongly typed fields", async () => {
    const cases: unknown[] = [
      {},
      { username: "someone" },
      { password: "secret" },
      { username: "", password: "secret" },
      { username: "   ", password: "secret" },
      { username: "someone", password: "" },
      { username: 12, password: "secret" },
      { username: "someone", password: ["secret"] },
      { username: null, password: null },
    ];
    for (const body of cases) {
      const res = await login(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    const noBody = await t.app.inject({ method: "POST", url: "/api/auth/login" });
    expect(noBody.statusCode).toBe(400);
  });

  it("answers 403 for a disabled account with the right password, 401 with a wrong one", async () => {
    const user = await createUser(t.app.db, { isActive: false });
    const right = await login({ username: user.username, password: TEST_PASSWORD });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ success: false, error: MESSAGES.accountDisabled });
    expect(sessionCookie(right)).toBeUndefined();
    const wrong = await login({ username: user.username, password: "wrong-password" });
    expect(wrong.statusCode).toBe(401);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it("ends the previous session of the browser when it signs in again", async () => {
    const user = await createUser(t.app.db);
    const first = await loginAs(t.app, user.username);
    const again = await login({ username: user.username, password: TEST_PASSWORD }, { headers: { cookie: first } });
    expect(again.statusCode).toBe(200);
    expect((await get("/api/auth/me", first)).statusCode).toBe(401);
    const second = sessionCookie(again);
    expect((await get("/api/auth/me", `blez_session=${second?.value}`)).statusCode).toBe(200);
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session, clears the cookie and answers 200", async () => {
    const user = await createUser(t.app.db);
    const cookie = await loginAs(t.app, user.username);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cleared = sessionCookie(res);
    expect(cleared?.value).toBe("");
    expect(cleared?.expires?.getTime() ?? 0).toBeLessThan(Date.now());
    expect(cleared?.httpOnly).toBe(true);
    expect(await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await get("/api/auth/me", cookie)).statusCode).toBe(401);
  });

  it("answers 200 when not signed in, or with an unknown cookie", async () => {
    const anon = await t.app.inject({ method: "POST", url: "/api/auth/logout" });
    expect(anon.statusCode).toBe(200);
    expect(anon.json()).toEqual({ success: true });
    const stale = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie: "blez_session=nonsense" } });
    expect(stale.statusCode).toBe(200);
  });
});

describe("GET /api/auth/me and /api/auth/verify-permissions", () => {
  it("answers the signed-in user", async () => {
    const user = await createUser(t.app.db, { role: "manager" });
    const res = await get("/api/auth/me", await loginAs(t.app, user.username));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: { id: user.id, username: user.username, role: "manager", is_active: true, created_at: user.createdAt.toISOString() },
    });
  });

  it("answers 401 without a session, with an unknown token, or with an absurd cookie", async () => {
    for (const cookie of ["", "blez_session=abc", `blez_session=${"x".repeat(5000)}`, "other=1"]) {
      for (const url of ["/api/auth/me", "/api/auth/verify-permissions", "/api/auth/socket-token"]) {
        const res = await get(url, cookie);
        expect(res.statusCode, `${url} ${cookie.slice(0, 20)}`).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
    }
  });

  it("answers each role's permissions as the contract's table says", async () => {
    for (const role of ROLES) {
      const user = await createUser(t.app.db, { role });
      const res = await get("/api/auth/verify-permissions", await loginAs(t.app, user.username));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(ROLE_PERMISSIONS[role]);
    }
    expect(ROLE_PERMISSIONS.streamer).toEqual({
      canManageProducts: false,
      canManageUsers: false,
      canViewAudit: false,
      canUpdateQuantity: true,
    });
    expect(ROLE_PERMISSIONS.inventory).toEqual({
      canManageProducts: true,
      canManageUsers: false,
      canViewAudit: true,
      canUpdateQuantity: true,
    });
    expect(Object.values(ROLE_PERMISSIONS.manager).every(Boolean)).toBe(true);
    expect(Object.values(ROLE_PERMISSIONS.super_admin).every(Boolean)).toBe(true);
  });
});
