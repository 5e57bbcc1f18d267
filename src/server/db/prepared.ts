import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
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

const dialect = new PgDialect();

/**
 * A raw statement sent as a named prepared statement (drizzle's `execute` sends every statement
 * unnamed, parsed and planned each time). For statements run many times whose text takes few
 * shapes: `name` must name one text only (node-postgres refuses a name used for another text).
 * After a few runs the database keeps a generic plan: on the embedded database planning a large
 * statement costs milliseconds (WebAssembly), a tenth of a small import batch.
 */
export async function executeNamed(db: Db, name: string, query: SQL): Promise<unknown> {
  return db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}
