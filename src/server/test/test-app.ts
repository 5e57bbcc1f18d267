import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../app.js";
import type { Config } from "../config.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";
import { testConfig } from "./config.js";
import { migratedDataDir, postgresTemplate, TEMPLATE_ENV } from "./templates.js";

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: the embedded database in a copy of the run's
 * migrated data folder (templates.ts; without one, a new in-memory database, migrated here), or,
 * when DATABASE_URL is set, a new PostgreSQL database created beside the one named there (a copy
 * of the run's migrated template when there is one) and dropped on close, so the shared database
 * stays reusable and test files never see each other's rows.
 */
export async function createTestDatabase(): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    if (!process.env[TEMPLATE_ENV.pglite]) {
      const database = await openPglite();
      return { database, drop: async () => {} };
    }
    const dir = migratedDataDir();
    const remove = async () => rmSync(dir, { recursive: true, force: true });
    const database = await openPglite(dir).catch(async (err) => {
      await remove();
      throw err;
    });
    return { database, drop: remove };
  }
  const name = `blez_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const template = postgresTemplate();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const { database, drop } = await createTestDatabase();
  const app = await buildApp({ config: testConfig(overrides), database, serveClient: false });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
