import { cpSync, existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the server tests' global setup (global-setup.ts) makes once per run, handed to the test
 * files (and the server processes they start) through the environment:
 * - a migrated embedded database folder, copied for each test file instead of creating a database
 *   and running every migration again (PGlite's initdb alone takes seconds of CPU);
 * - on PostgreSQL, a migrated database each test file's database is made from (CREATE DATABASE ...
 *   TEMPLATE);
 * - the server built from the current sources, which server processes run instead of compiling a
 *   hundred modules through tsx at each start (as `npm start` runs it).
 * Outside a vitest run (the bench) none is set, and each falls back to doing the work itself.
 */
export const TEMPLATE_ENV = {
  pglite: "BLEZ_TEST_PGLITE_TEMPLATE",
  postgres: "BLEZ_TEST_POSTGRES_TEMPLATE",
  server: "BLEZ_TEST_SERVER_MAIN",
} as const;

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Where test data folders go: memory (/dev/shm) when the machine has it, else the temporary folder. */
export function scratchDir(): string {
  try {
    if (statSync("/dev/shm").isDirectory()) return "/dev/shm";
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

/**
 * A new data folder holding a migrated embedded database with no rows (a copy of the run's
 * template), or an empty folder when there is no template (the server then creates and migrates
 * the database itself). The caller removes it.
 */
export function migratedDataDir(prefix = "blez-test-"): string {
  const dir = mkdtempSync(join(scratchDir(), prefix));
  const template = process.env[TEMPLATE_ENV.pglite];
  if (template && existsSync(template)) cpSync(template, dir, { recursive: true });
  return dir;
}

/** The name of the run's migrated PostgreSQL database to copy, if the global setup made one. */
export function postgresTemplate(): string | undefined {
  return process.env[TEMPLATE_ENV.postgres] || undefined;
}

/** Node's arguments that start the server (src/server/main.ts): its build for this run, or the sources through tsx. */
export function serverArgs(): string[] {
  const built = process.env[TEMPLATE_ENV.server];
  return built && existsSync(built) ? ["--enable-source-maps", built] : ["--import", "tsx", "src/server/main.ts"];
}
