import type { Db } from "./client.js";

/**
 * A hot query built once per database and sent as a named prepared statement: drizzle does not
 * build its SQL again, and each connection parses and plans it once. Build it with
 * `sql.placeholder(...)` for the values and `.prepare(name)` with a name used nowhere else.
 */
export function prepared<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/** A statement sent straight through node-postgres (rawRows): its SQL text and a name used nowhere else. */
export interface RawStatement {
  name: string;
  text: string;
}

/**
 * Rows of one of the hottest statements (a scan's lookup), sent as a named prepared statement
 * straight through the database's node-postgres pool: drizzle's prepared statement adds its query
 * building, tracing and row mapping to every call, a measurable part of the whole request
 * (bench/hot-paths). Only on the database itself, not in a transaction.
 */
export async function rawRows<T extends object>(db: Db, statement: RawStatement, values: unknown[]): Promise<T[]> {
  const pool = (db as unknown as { $client?: { query: (q: RawStatement & { values: unknown[] }) => Promise<{ rows: T[] }> } }).$client;
  if (!pool) throw new Error(`${statement.name}: rawRows needs the database, not a transaction`);
  return (await pool.query({ ...statement, values })).rows;
}
