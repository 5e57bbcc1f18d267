import type { Pool, PoolClient } from "pg";

/**
 * The pool as socket.io's PostgreSQL adapter sees it, watching the one connection the adapter
 * takes for LISTEN. The adapter connects asynchronously and only gives that connection back on
 * close once it has finished setting it up; closing before then would leave it checked out for
 * good, and ending the pool would wait for it forever. `settled()` waits for the set-up and
 * `releaseIfHeld()` is the safety net after closing the adapter. When the LISTEN connection is
 * lost (the database restarted, or ended it), the adapter takes a new one by itself but never
 * gives the dead one back: it is given back here, so the pool does not run out of connections.
 */
export function watchedAdapterPool(pool: Pool) {
  const listener = { ready: Promise.resolve() as Promise<unknown>, client: undefined as PoolClient | undefined, released: false };

  const adapterPool = {
    connect: () => {
      const connecting = pool.connect().then((client) => {
        listener.client = client;
        listener.released = false;
        const { query, release } = client;
        // Watch the adapter's LISTEN queries; give the client back to the pool as it was.
        client.query = ((...args: Parameters<PoolClient["query"]>) => {
          const result = (query as (...a: unknown[]) => unknown).apply(client, args);
          if (result instanceof Promise) listener.ready = result.catch(() => {});
          return result;
        }) as PoolClient["query"];
        client.release = (err?: Error | boolean) => {
          listener.released = true;
          client.query = query;
          client.release = release;
          return release.call(client, err);
        };
        client.once("end", () => {
          if (listener.client === client && !listener.released) client.release(true);
        });
        return client;
      });
      listener.ready = connecting.catch(() => {});
      return connecting;
    },
    query: (text: string, values?: unknown[]) => pool.query(text, values),
  } as unknown as Pool;

  /** Until the LISTEN connection is connected and listening (or has failed). */
  async function settled(): Promise<void> {
    for (;;) {
      const ready = listener.ready;
      await ready;
      // The adapter records the connection as its own right after its LISTEN answers.
      await new Promise((resolve) => setImmediate(resolve));
      if (listener.ready === ready) return;
    }
  }

  /** Gives the LISTEN connection back (closing it) if the adapter still holds it after its close. */
  function releaseIfHeld(): void {
    if (listener.client && !listener.released) {
      listener.client.removeAllListeners("end");
      listener.client.release(true);
    }
  }

  return { adapterPool, settled, releaseIfHeld };
}

/** Waits (briefly) for the pool's queries in flight, e.g. the adapter's goodbye notice, before the pool is ended. */
export async function poolIdle(pool: Pool, maxWaitMs = 1_000): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  while ((pool.totalCount > pool.idleCount || pool.waitingCount > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
