import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../app.js";
import { type Config, testConfig } from "../config.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/**
 * A fresh database for one test file: in-memory PGlite, or, when DATABASE_URL is set, a new
 * PostgreSQL database created beside the one named there and dropped on close (so the shared
 * database stays reusable and test files never see each other's rows).
 */
export async function createTestDatabase(): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const database = await openPglite();
    return { database, drop: async () => {} };
  }
  const name = `blez_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
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
