import { setTimeout as delay } from "node:timers/promises";
import type { Database } from "./client.js";

/**
 * Bulk work (import batches, staging, undo) calls this before each statement or transaction. On
 * the embedded database (one connection for everything) it waits until the connection is free
 * and nobody is queued for it, at most 50 ms (so a busy shop's import still moves): the pool
 * serves its queue in order, so a batch that queued behind a person's statement held everyone
 * who came next for both (a health check waited 130-140 ms). On PostgreSQL bulk work has a pool
 * of its own: no wait.
 */
export async function yieldToPeople(database: Database): Promise<void> {
  if (database.kind !== "pglite") return;
  const { pool } = database;
  const max = pool.options.max ?? 1;
  const busy = () => pool.waitingCount > 0 || (pool.idleCount === 0 && pool.totalCount >= max);
  for (let waited = 0; busy() && waited < 50; waited += 5) await delay(5);
}
