import type { Db } from "./client.js";

export type AfterCommit = (fn: () => void) => void;

/**
 * One transaction per use case. Work registers side effects (realtime events) with
 * `afterCommit`; they run only once the transaction has committed, never for a rollback.
 * When the work fails and the rollback fails too (the connection was lost), the work's own
 * error is thrown: drizzle would throw the rollback's, hiding why the transaction failed.
 */
export async function withTransaction<T>(db: Db, work: (tx: Db, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  const callbacks: Array<() => void> = [];
  let workError: { error: unknown } | undefined;
  let result: T;
  try {
    result = await db.transaction(async (tx) => {
      try {
        return await work(tx as unknown as Db, (fn) => callbacks.push(fn));
      } catch (error) {
        workError = { error };
        throw error;
      }
    });
  } catch (error) {
    throw workError ? workError.error : error;
  }
  for (const fn of callbacks) {
    try {
      fn();
    } catch {
      // An emit failing must not turn a committed change into an error answer.
    }
  }
  return result;
}
