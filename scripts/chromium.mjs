// Finds the Chromium the browser tests drive: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  try {
    const require = createRequire(import.meta.url);
    candidates.push(require("playwright-core").chromium.executablePath());
  } catch {
    // Playwright's own browser is optional.
  }
  return candidates.find((p) => p && existsSync(p)) ?? null;
}
