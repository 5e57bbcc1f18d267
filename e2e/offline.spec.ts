import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { type APIRequestContext, expect, request, test } from "@playwright/test";
import type { QuantityAuditEntry } from "../src/contract/audit";
import type { Product } from "../src/contract/products";
import { createProduct, createUser } from "./support/api";
import { E2E_ADMIN, E2E_PORT } from "./support/env";

/**
 * The streamer app without its server: this test runs its own server process (its own port and
 * data folder), so it can stop it and start it again on the same data.
 */
const PORT = E2E_PORT + 50;
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = `.e2e-data/${PORT}-offline`;

let server: ChildProcess | null = null;

async function startServer(): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: "warn",
      ...(process.env.E2E_CLIENT_DIR ? { CLIENT_DIR: process.env.E2E_CLIENT_DIR } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  server = child;
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        return fetch(`${BASE}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(200);
}

async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

let api: APIRequestContext;
test.beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  await startServer();
  api = await request.newContext({ baseURL: BASE });
  const res = await api.post("/api/auth/login", { data: E2E_ADMIN });
  expect(res.ok()).toBe(true);
});
test.afterAll(async () => {
  await api?.dispose();
  await stopServer();
  rmSync(DATA_DIR, { recursive: true, force: true });
});

test("the server goes away: three taps wait as pending, survive a reload, and apply once each when it is back", async ({ browser }) => {
  test.slow();
  const user = await createUser(api, "streamer");
  const product = await createProduct(api, { quantity_on_hand: 10 });
  // The service worker keeps the app without its server (the other tests block it).
  const context = await browser.newContext({ baseURL: BASE, serviceWorkers: "allow" });
  const page = await context.newPage();
  try {
    const login = await page.request.post("/api/auth/login", { data: { username: user.username, password: user.password } });
    expect(login.ok()).toBe(true);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
    await expect(page.getByTestId("live-state")).toHaveText("Live");
    // The service worker keeps the app: it opens again without the server.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

    await page.getByRole("button", { name: "Scan Barcode" }).click();
    await page.getByLabel("Enter barcode manually").fill(product.barcode);
    await page.getByRole("button", { name: "Look Up Product" }).click();
    await expect(page.getByTestId("current-stock")).toHaveText("10");

    await stopServer();
    await expect(page.getByTestId("live-state")).toHaveText("Offline");
    const sold = page.getByRole("button", { name: "SOLD (-1)" });
    for (let i = 0; i < 3; i++) await sold.click();
    await expect(page.getByTestId("current-stock")).toHaveText("7");
    await expect(page.getByTestId("pending-taps")).toHaveText("3 pending");
    await expect(page.getByTestId("waiting-taps-count")).toHaveText("3");

    // A reload while the server is still away: the app, the product and its taps come back.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
    await expect(page.getByTestId("current-product-name")).toHaveText(product.product_name);
    await expect(page.getByTestId("current-stock")).toHaveText("7");
    await expect(page.getByTestId("pending-taps")).toHaveText("3 pending");
    await expect(page.getByTestId("waiting-taps-count")).toHaveText("3");

    await startServer();
    await expect(page.getByTestId("waiting-taps")).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByTestId("pending-taps")).toHaveCount(0);
    await expect(page.getByTestId("current-stock")).toHaveText("7");
    await expect(page.getByTestId("live-state")).toHaveText("Live", { timeout: 30_000 });
  } finally {
    await context.close();
  }

  // Applied once each: 7 on the server, three -1 entries in the quantity audit.
  const stored = (await (await api.get(`/api/products/barcode/${product.barcode}`)).json()) as Product;
  expect(stored.quantity_on_hand).toBe(7);
  const audit = (await (await api.get(`/api/audit/quantity/${product.id}`)).json()) as QuantityAuditEntry[];
  const taps = audit.filter((e) => e.transaction_type === "adjustment");
  expect(taps.map((e) => [e.quantity_change, e.notes])).toEqual([
    [-1, "Streamer adjustment"],
    [-1, "Streamer adjustment"],
    [-1, "Streamer adjustment"],
  ]);
});
