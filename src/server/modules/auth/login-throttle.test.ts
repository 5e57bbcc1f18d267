import { sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { testConfig } from "../../test/config.js";
import { createUser, loginAs, TEST_PASSWORD, uniqueName } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { TOO_MANY_ATTEMPTS } from "./login-throttle.js";

/** The login throttle with its default limits: 20 failures per address, 10 per username, in 15 minutes. */

/** For tests that build a second app on the same database. */
const SECOND_APP = { timeout: 120_000 };
const PER_ADDRESS = 20;
const PER_USERNAME = 10;

let t: TestApp;
let ipSeq = 0;
/** Each scenario signs in from its own addresses, so scenarios never share a counter. */
const newIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function login(username: string, password: string, opts: Partial<InjectOptions> = {}, app: FastifyInstance = t.app) {
  return app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password }, ...opts });
}
const from = (remoteAddress: string) => ({ remoteAddress });

describe("per address, across usernames", () => {
  it("throttles 30 wrong passwords over 30 usernames from one address, also the right one, but not other addresses", async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(uniqueName("spray"), `guess-${i}`, from(ip))).statusCode);
    expect(statuses.slice(0, PER_ADDRESS)).toEqual(Array(PER_ADDRESS).fill(401));
    expect(statuses.slice(PER_ADDRESS)).toEqual(Array(30 - PER_ADDRESS).fill(429));

    const user = await createUser(t.app.db);
    const refused = await login(user.username, TEST_PASSWORD, from(ip));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY_ATTEMPTS });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.cookies).toEqual([]);
    expect((await login(user.username, TEST_PASSWORD, from(newIp()))).statusCode).toBe(200);
  });

  it("counts concurrent guesses before checking them: no more than the limit are ever checked", async () => {
    const ip = newIp();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(uniqueName("burst"), `guess-${i}`, from(ip))));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(PER_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - PER_ADDRESS);
  });

  it("never limits successful sign-ins, and they do not count as failures", async () => {
    const user = await createUser(t.app.db);
    const ip = newIp();
    for (let i = 0; i < PER_ADDRESS + 10; i++) {
      expect((await login(user.username, TEST_PASSWORD, from(ip))).statusCode).toBe(200);
    }
    for (let i = 0; i < PER_USERNAME - 1; i++) {
      expect((await login(user.username, "wrong", from(ip))).statusCode).toBe(401);
    }
    expect((await login(user.username, TEST_PASSWORD, from(ip))).statusCode).toBe(200);
  });

  it("forgets failures once LOGIN_WINDOW_MINUTES have passed", async () => {
    const ip = newIp();
    for (let i = 0; i < PER_ADDRESS; i++) await login(uniqueName("old"), "wrong", from(ip));
    const user = await createUser(t.app.db);
    expect((await login(user.username, TEST_PASSWORD, from(ip))).statusCode).toBe(429);
    await t.app.db.execute(
      sql`update rate_limits set window_started_at = now() - interval '16 minutes' where key = ${`login-address:${ip}`}`,
    );
    expect((await login(user.username, TEST_PASSWORD, from(ip))).statusCode).toBe(200);
  });
});

describe("per username, across addresses", () => {
  it("lets the real admin in from another address while an attacker keeps failing against admin", async () => {
    const admin = await createUser(t.app.db, { role: "super_admin", username: uniqueName("admin") });
    const attacker = newIp();
    for (let i = 0; i < PER_USERNAME; i++) {
      expect((await login(admin.username, `guess-${i}`, from(attacker))).statusCode).toBe(401);
    }
    // Locked for the attacker, even with the right password...
    expect((await login(admin.username, `guess-again`, from(attacker))).statusCode).toBe(429);
    expect((await login(admin.username, TEST_PASSWORD, from(attacker))).statusCode).toBe(429);

    // ...while the owner, from an address with no failures, gets in, as often as needed.
    const office = newIp();
    for (let i = 0; i < 3; i++) {
      const res = await login(admin.username.toUpperCase(), TEST_PASSWORD, from(office));
      expect(res.statusCode).toBe(200);
      expect(res.json().user.id).toBe(admin.id);
    }
    // The attacker keeps failing meanwhile; the owner is still let in.
    expect((await login(admin.username, "guess-more", from(attacker))).statusCode).toBe(429);
    expect((await login(admin.username, TEST_PASSWORD, from(office))).statusCode).toBe(200);

    // A fresh address gets one guess at a locked username, then it is refused there too.
    const another = newIp();
    expect((await login(admin.username, "guess-elsewhere", from(another))).statusCode).toBe(401);
    expect((await login(admin.username, "guess-elsewhere-2", from(another))).statusCode).toBe(429);
  });

  it("counts unknown usernames in any letter case as one", async () => {
    const name = uniqueName("ghost");
    for (let i = 0; i < PER_USERNAME; i++) {
      const variant = i % 2 === 0 ? name : name.toUpperCase();
      expect((await login(variant, "whatever", from(newIp()))).statusCode).toBe(401);
    }
    const ip = newIp();
    expect((await login(name, "whatever", from(ip))).statusCode).toBe(401);
    expect((await login(name, "whatever", from(ip))).statusCode).toBe(429);
  });
});

describe("across server processes and proxies", () => {
  it("is kept in the database, so another server instance on it counts the same failures", SECOND_APP, async () => {
    const second = await buildApp({ config: testConfig(), database: t.database, serveClient: false });
    try {
      await second.ready();
      const ip = newIp();
      for (let i = 0; i < PER_ADDRESS; i++) {
        const res = await login(uniqueName("two"), "wrong", from(ip), i % 2 === 0 ? t.app : second);
        expect(res.statusCode).toBe(401);
      }
      const user = await createUser(t.app.db);
      expect((await login(user.username, TEST_PASSWORD, from(ip), second)).statusCode).toBe(429);
      expect((await login(user.username, TEST_PASSWORD, from(ip), t.app)).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it(
    "with TRUST_PROXY=1 takes the address the proxy saw: a spoofed X-Forwarded-For neither dodges the limit nor lands in the audit",
    SECOND_APP,
    async () => {
      const proxied = await buildApp({ config: testConfig({ TRUST_PROXY: 1 }), database: t.database, serveClient: false });
      try {
        await proxied.ready();
        const client = newIp();
        // The proxy (127.0.0.1) appends the address it saw to whatever the client sent.
        const via = (spoofed: string) => ({ remoteAddress: "127.0.0.1", headers: { "x-forwarded-for": `${spoofed}, ${client}` } });
        for (let i = 0; i < PER_ADDRESS; i++) {
          const res = await login(uniqueName("spoof"), "wrong", via(`203.0.113.${i + 1}`), proxied);
          expect(res.statusCode).toBe(401);
        }
        expect((await login(uniqueName("spoof"), "wrong", via("198.51.100.99"), proxied)).statusCode).toBe(429);

        const manager = await createUser(t.app.db, { role: "manager" });
        const cookie = await loginAs(t.app, manager.username);
        const created = await proxied.inject({
          method: "POST",
          url: "/api/products",
          headers: { cookie, "x-forwarded-for": `203.0.113.250, ${client}` },
          remoteAddress: "127.0.0.1",
          payload: { barcode: uniqueName("PROXY"), product_name: "Proxied", vendor: "Topps" },
        });
        expect(created.statusCode).toBe(201);
        const audit = await t.app.inject({ method: "GET", url: `/api/audit/product/${created.json().id}`, headers: { cookie } });
        expect(audit.json().map((e: { ip_address: string }) => e.ip_address)).toEqual([client]);
      } finally {
        await proxied.close();
      }
    },
  );

  it("with a list of proxy addresses ignores X-Forwarded-For from anyone else", SECOND_APP, async () => {
    const proxied = await buildApp({ config: testConfig({ TRUST_PROXY: ["127.0.0.1"] }), database: t.database, serveClient: false });
    try {
      await proxied.ready();
      const direct = newIp();
      for (let i = 0; i < PER_ADDRESS; i++) {
        const res = await login(
          uniqueName("direct"),
          "wrong",
          { remoteAddress: direct, headers: { "x-forwarded-for": `198.51.100.${i + 1}` } },
          proxied,
        );
        expect(res.statusCode).toBe(401);
      }
      expect((await login(uniqueName("direct"), "wrong", from(direct), proxied)).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});
