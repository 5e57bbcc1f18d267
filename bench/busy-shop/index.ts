import { report } from "./report.js";
import { busyShop, type DbKind, settings } from "./scenario.js";
import { adminQuery, cleanUp } from "./servers.js";

/**
 * The busy shop: 200 watching sockets, 10 taps a second, one client editing, a 50,000-row import
 * and health probes, all at once against real server processes, on PGlite (one process) and on
 * PostgreSQL (two processes on one database). BENCH_DB=pglite|postgres picks one.
 */
export async function runBusyShop(): Promise<void> {
  const which = process.env.BENCH_DB ?? "both";
  const kinds: DbKind[] = which === "both" ? ["pglite", "postgres"] : [which as DbKind];
  if (kinds.includes("postgres")) await adminQuery("select 1"); // fails early and clearly when PostgreSQL is not there
  try {
    for (const kind of kinds) {
      const result = await busyShop(kind);
      console.log(report(result, settings));
    }
  } finally {
    await cleanUp();
  }
}
