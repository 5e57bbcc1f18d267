import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema.js";

export type Schema = typeof schema;
/** What services and repositories receive: the database or a transaction on it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** node-postgres pool when on PostgreSQL (the socket.io adapter needs it). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any constant: serialises migrations when several server processes start at once. */
const MIGRATION_LOCK = 7_345_221;

/** PGlite in `dataDir` (or in memory when `dataDir` is undefined), migrated. */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  return { db, kind: "pglite", close: () => client.close() };
}

/** node-postgres pool on `url`, migrated under an advisory lock. */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; queries report their own errors.
  pool.on("error", () => {});
  const db = drizzlePg({ client: pool, schema });
  const lock = await pool.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(db, { migrationsFolder });
  } finally {
    await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    lock.release();
  }
  return { db: db as unknown as Db, kind: "postgres", pool, close: () => pool.end() };
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

/** Cheap liveness check used by the health endpoint. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
