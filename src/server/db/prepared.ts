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
