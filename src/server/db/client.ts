import { join } from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { projectRoot } from "../paths.js";
import { startEmbeddedDatabase } from "./embedded/start.js";
import { survivePoolFaults } from "./pool-faults.js";
import * as schema from "./schema.js";

export type Schema = typeof schema;
/** What services and repositories receive: the database or a transaction on it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The node-postgres pool behind `db` (both kinds; the socket.io adapter uses it on PostgreSQL). */
  pool: pg.Pool;
  /**
   * Where bulk work (import batches) runs. PostgreSQL: a small pool of its own, so it never takes
   * the connections taps need. Embedded: the one connection (PGlite is one session), shared.
   */
  bulk: { db: Db; pool: pg.Pool };
  close(): Promise<void>;
}

const migrationsFolder = join(projectRoot, "src", "server", "db", "migrations");
/** Any constant: serialises migrations when several server processes start at once. */
const MIGRATION_LOCK = 7_345_221;

/**
 * The embedded database: PGlite in `dataDir` (in memory when undefined), in its own process and
 * reached through node-postgres like PostgreSQL, so no query runs on the server's event loop.
 */
export async function openPglite(dataDir?: string): Promise<Database> {
  const embedded = await startEmbeddedDatabase(dataDir);
  try {
    const pool = new pg.Pool({
      ...embedded.connection,
      // PGlite is one session for every connection: a connection opened after another one closed
      // (an error, a restart) finds that one's named prepared statements still there, and
      // node-postgres would fail preparing them again. It starts with none (awaited before use).
      onConnect: async (client) => {
        await client.query("DEALLOCATE ALL");
      },
    });
    return await openPool("pglite", pool, embedded.stop);
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}

/** A request that cannot get a connection in this time answers 503 instead of waiting (the client gives up after 10 s anyway). */
const CONNECT_TIMEOUT_MS = 10_000;

/** node-postgres pool on `url`. */
export async function openPostgres(url: string): Promise<Database> {
  const bulkPool = new pg.Pool({ connectionString: url, max: BULK_POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  survivePoolFaults(bulkPool);
  const bulk = { db: drizzle({ client: bulkPool, schema }) as unknown as Db, pool: bulkPool };
  try {
    return await openPool(
      "postgres",
      new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS }),
      () => bulkPool.end(),
      bulk,
    );
  } catch (err) {
    await bulkPool.end();
    throw err;
  }
}

/** Connections bulk work may hold at once on PostgreSQL (the requests' pool has 10). */
const BULK_POOL_MAX = 2;

/** A migrated database on `pool`; migrations run under an advisory lock, so processes may start together. */
async function openPool(kind: Database["kind"], pool: pg.Pool, stop: () => Promise<void>, bulk?: Database["bulk"]): Promise<Database> {
  survivePoolFaults(pool);
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  const lock = await pool.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    // On the connection that holds the lock (the embedded database's pool has only that one).
    await migrate(drizzle({ client: lock, schema }), { migrationsFolder });
  } finally {
    await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    lock.release();
  }
  return {
    db,
    kind,
    pool,
    bulk: bulk ?? { db, pool },
    close: async () => {
      await pool.end();
      await stop();
    },
  };
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

/** Cheap liveness check used by the health endpoint. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
