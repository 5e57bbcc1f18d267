import { setTimeout as delay } from "node:timers/promises";
import type { Database } from "./client.js";

/**
 * Bulk work (import batches, staging, undo) calls this before each statement or transaction. On
 * the embedded database (one connection for everything) it lets the requests queued for the
 * connection go first: the pool serves its queue in order, so a batch asking after them waits for
 * them anyway; this only waits a moment longer while more keep coming (at most 50 ms, so a busy
 * shop's import still moves). On PostgreSQL bulk work has a pool of its own: no wait.
 */
export async function yieldToPeople(database: Database): Promise<void> {
  if (database.kind !== "pglite") return;
  for (let waited = 0; database.pool.waitingCount > 0 && waited < 50; waited += 5) await delay(5);
}
