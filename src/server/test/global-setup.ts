import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { buildServer } from "../../../scripts/build-server.mjs";
import { openPglite, openPostgres } from "../db/client.js";
import { ROOT, scratchDir, TEMPLATE_ENV } from "./templates.js";

/**
 * Once per vitest run of the server tests (vitest.config.ts): the migrated embedded database
 * folder test files copy, on PostgreSQL (DATABASE_URL) the migrated template database, and the
 * server built from the current sources for the tests that start server processes. See
 * templates.ts. Answers the teardown, which removes all three.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const cleanUps: Array<() => Promise<void> | void> = [];
  const teardown = async () => {
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
  };
  try {
    const serverDir = join(ROOT, "dist", `test-server-${process.pid}-${randomBytes(3).toString("hex")}`);
    cleanUps.push(() => rmSync(serverDir, { recursive: true, force: true }));
    const [main] = await Promise.all([
      buildServer(serverDir),
      (async () => {
        const dir = mkdtempSync(join(scratchDir(), "blez-template-"));
        cleanUps.push(() => rmSync(dir, { recursive: true, force: true }));
        const database = await openPglite(dir);
        await database.close();
        process.env[TEMPLATE_ENV.pglite] = dir;
      })(),
      (async () => {
        const base = process.env.DATABASE_URL;
        if (!base) return;
        const name = `blez_template_${Date.now()}_${randomBytes(4).toString("hex")}`;
        await adminQuery(base, `create database "${name}"`);
        cleanUps.push(() => adminQuery(base, `drop database if exists "${name}" with (force)`));
        const url = new URL(base);
        url.pathname = `/${name}`;
        const database = await openPostgres(url.toString());
        await database.close();
        process.env[TEMPLATE_ENV.postgres] = name;
      })(),
    ]);
    process.env[TEMPLATE_ENV.server] = main;
  } catch (err) {
    await teardown();
    throw err;
  }
  console.info(`Server tests: migrated database template and server build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return teardown;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
