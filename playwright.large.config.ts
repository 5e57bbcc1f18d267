import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The large-catalogue browser tests (titles ending in @large), one at a time on a server and
 * database of their own: run with E2E_LARGE=1 (npm run test:e2e:large does; CI runs it), which moves the server
 * to the next port (e2e/support/env.ts).
 */
export default defineConfig({ ...base, grep: /@large/, grepInvert: undefined, workers: 1 });
