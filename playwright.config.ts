import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_PORT } from "./e2e/support/env";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium.mjs";

const executablePath = findChromium();
if (!executablePath) {
  throw new Error("No Chromium found for the browser tests: run `node scripts/ensure-chromium.mjs` or set CHROMIUM_PATH.");
}

/**
 * Browser tests against the real server on a fresh embedded database. E2E_PORT and
 * E2E_CLIENT_DIR let several runs (and several builds) coexist on one machine.
 */
export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  retries: process.env.CI ? 1 : 0,
  // Two browsers, the server and its database share two cores: a test that takes 25 s alone
  // can take a minute while the other worker's test runs (no assertion here is about speed).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  forbidOnly: true,
  // Tests that import tens of thousands of products run on their own server afterwards
  // (playwright.large.config.ts): on a shared embedded database their imports would hold up
  // every other test's requests.
  grepInvert: /@large/,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    // Recording a trace of every test costs about a third of the browser tests' CPU time: CI
    // records one when it runs a failed test again; here, run a failing test with --trace on.
    trace: process.env.CI ? "on-first-retry" : "off",
    // The app's service worker caches every asset of the build in each new browser (about a
    // hundred files; 8.0 -> 7.6 min for the whole run here). Only the tests of working without
    // the server need it: they allow it themselves.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions: { executablePath, args: CHROMIUM_ARGS } } }],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      DATA_DIR: `.e2e-data/${E2E_PORT}`,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: "warn",
      // e2e/webhooks.spec.ts's receiver runs on this computer.
      WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
      ...(process.env.E2E_CLIENT_DIR ? { CLIENT_DIR: process.env.E2E_CLIENT_DIR } : {}),
    },
  },
});
