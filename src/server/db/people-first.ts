import { setTimeout as delay } from "node:timers/promises";
import type { Database } from "./client.js";

/** When bulk work last found a person's statement running or queued, per database (performance.now()). */
const peopleSeenAt = new WeakMap<Database, number>();

/**
 * Bulk work (import batches, staging, undo) calls this before each statement or transaction. On
 * the embedded database (one connection for everything) it waits until the connection is free
 * and nobody is queued for it, at most 50 ms (so a busy shop's import still moves): the pool
 * serves its queue in order, so a batch that queued behind a person's statement would hold
 * everyone who came next for both. On PostgreSQL bulk work has a pool
 * of its own: no wait.
 */
export async function yieldToPeople(database: Database): Promise<void> {
  if (database.kind !== "pglite") return;
  const { pool } = database;
  const max = pool.options.max ?? 1;
  const busy = () => pool.waitingCount > 0 || (pool.idleCount === 0 && pool.totalCount >= max);
  if (busy()) peopleSeenAt.set(database, performance.now());
  for (let waited = 0; busy() && waited < 50; waited += 5) await delay(5);
}

/**
 * Whether bulk work found someone waiting for the embedded database's connection in the last
 * `ms`. A request that comes during a batch waits for it, so the next yieldToPeople sees it:
 * after a quiet spell one request waits for one longer batch, and the batches shrink after it.
 */
export function peopleSeenWithin(database: Database, ms: number): boolean {
  const at = peopleSeenAt.get(database);
  return at !== undefined && performance.now() - at <= ms;
}
