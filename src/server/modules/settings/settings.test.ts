import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { signedIn } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ CURRENCY: "EUR", TIMEZONE: "Europe/Berlin" });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/settings", () => {
  it("answers the shop's currency and time zone to any signed-in user, 401 to others", async () => {
    const { cookie } = await signedIn(t.app, "streamer");
    expect((await t.app.inject({ method: "GET", url: "/api/settings", headers: { cookie } })).json()).toEqual({
      currency: "EUR",
      timezone: "Europe/Berlin",
    });
    expect((await t.app.inject({ method: "GET", url: "/api/settings" })).statusCode).toBe(401);
  });

  it("reads CURRENCY (default USD, any case) and refuses a code that is not a currency", () => {
    expect(loadConfig({}).CURRENCY).toBe("USD");
    expect(loadConfig({ CURRENCY: "gbp" }).CURRENCY).toBe("GBP");
    expect(() => loadConfig({ CURRENCY: "DOLLARS" })).toThrow(/CURRENCY: expected an ISO 4217 currency code/);
  });

  it("reads TIMEZONE (an IANA name; default the server's own zone) and refuses a name that is not a zone", () => {
    expect(loadConfig({ TIMEZONE: "America/New_York" }).TIMEZONE).toBe("America/New_York");
    expect(loadConfig({}).TIMEZONE).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(loadConfig({ TIMEZONE: "" }).TIMEZONE).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => loadConfig({ TIMEZONE: "Mars/Olympus" })).toThrow(/TIMEZONE: expected an IANA time zone name/);
  });
});
