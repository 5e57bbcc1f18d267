import type pg from "pg";

/**
 * A lost database connection must never end the process. node-postgres emits `error` on a client
 * whose connection breaks (a database restart, pg_terminate_backend, a network cut); the pool
 * listens only while a client is idle, so a client checked out at that moment (in a transaction,
 * holding the migration lock, or socket.io's permanent LISTEN connection) would raise an
 * unhandled 'error' event and crash the server. Every client gets a listener for its whole life:
 * the query in flight reports the failure itself (503), and the pool drops the broken client when
 * it is given back.
 */
export function survivePoolFaults(pool: pg.Pool, onError: (err: Error) => void = () => {}): void {
  pool.on("error", onError);
  pool.on("connect", (client) => {
    client.on("error", onError);
  });
}
