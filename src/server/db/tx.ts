import type { Db } from "./client.js";

export type AfterCommit = (fn: () => void) => void;

/**
 * One transaction per use case. Work registers side effects (realtime events) with
 * `afterCommit`; they run only once the transaction has committed, never for a rollback.
 */
export async function withTransaction<T>(db: Db, work: (tx: Db, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await db.transaction((tx) => work(tx as unknown as Db, (fn) => callbacks.push(fn)));
  for (const fn of callbacks) {
    try {
      fn();
    } catch {
      // An emit failing must not turn a committed change into an error answer.
    }
  }
  return result;
}
