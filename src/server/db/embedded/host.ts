/**
 * The embedded database's own process: PGlite (Postgres in WebAssembly) served over the
 * PostgreSQL protocol on a Unix socket, so the server talks to it with node-postgres exactly as
 * it talks to PostgreSQL, and a large query or an import never runs on the server's event loop.
 *
 * Started by `startEmbeddedDatabase` with `fork`: argv[2] is the socket's path, argv[3] the most
 * connections it takes, argv[4] the data folder (absent: in memory). It answers `{ready: true}` once listening and closes the database
 * cleanly (so PGlite flushes to disk) on a `close` message or when its parent goes away.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * A close that has not finished in this time (a client connection that never lets go) ends the
 * process anyway: the data folder's lock is held until it exits, and a restarted server is
 * waiting for it (up to 15 s). Committed work is in the write-ahead log either way.
 */
const CLOSE_LIMIT_MS = 10_000;

async function main() {
  const [path, maxConnections, dataDir] = process.argv.slice(2);
  if (!path || !maxConnections) throw new Error("usage: host.ts SOCKET_PATH MAX_CONNECTIONS [DATA_DIR]");
  const db = await PGlite.create(dataDir || undefined);
  const server = new PGLiteSocketServer({ db, path, maxConnections: Number(maxConnections) });
  await server.start();

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      setTimeout(() => process.exit(1), CLOSE_LIMIT_MS);
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
      process.exit(0);
    })();
    return closing;
  };
  process.on("message", (message) => {
    if (message === "close") void close();
  });
  // The parent died or closed the channel without asking: still close the files properly.
  process.on("disconnect", () => void close());
  process.on("SIGTERM", () => void close());
  process.on("SIGINT", () => {}); // Ctrl-C reaches the whole process group: the parent decides when to close.
  // The parent died while the database opened (its disconnect came before the listener above).
  if (!process.connected) return void close();
  process.send?.({ ready: true });
}

main().catch((err) => {
  process.send?.({ error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
