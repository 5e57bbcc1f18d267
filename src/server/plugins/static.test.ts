import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import type { Database } from "../db/client.js";
import { testConfig } from "../test/config.js";
import { createTestDatabase } from "../test/test-app.js";

/** The client's addresses (src/client/shell/routes.ts) are answered with the app's page; API paths and files are not. */

const PAGE = "<!doctype html><title>Blez test client</title>";
let dir: string;
let app: FastifyInstance;
let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "blez-client-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), PAGE);
  writeFileSync(join(dir, "assets", "index-AbCd12_-.js"), "console.log(1)");
  writeFileSync(join(dir, "early-catalogue.js"), "void 0");
  ({ database, drop } = await createTestDatabase());
  app = await buildApp({ config: testConfig({ CLIENT_DIR: dir }), database, serveClient: true });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("the client's addresses", () => {
  it("answer the app's page, whatever their query, and whether the client knows them or not", async () => {
    for (const url of [
      "/",
      "/streamer",
      "/inventory?q=pikachu&vendor=Topps&sort=-quantity_on_hand",
      "/inventory/products/12",
      "/reports?from=2026-03-01&to=2026-03-31&by=day",
      "/orders",
      "/orders/7",
      "/users",
      "/integrations",
      "/integrations/",
      "/no/such/screen",
    ]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe(PAGE);
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
  });

  it("leave files as they are: a file that is there is served, one that is not is a 404, never the page", async () => {
    const script = await app.inject({ method: "GET", url: "/early-catalogue.js" });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe("void 0");
    expect(script.headers["content-type"]).toMatch(/javascript/);
    for (const url of ["/assets/index-Gone1234.js", "/icons/missing.png", "/inventory/products/12.json"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: `Route GET ${url} not found` });
    }
  });

  it("never stand in for the API or the live connection", async () => {
    for (const [method, url] of [
      ["GET", "/api/inventory"],
      ["GET", "/api/no-such-route?x=1"],
      ["GET", "/socket.io/x"],
      ["POST", "/reports"],
      ["DELETE", "/inventory/products/12"],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: `Route ${method} ${url.split("?")[0]} not found` });
    }
  });
});
