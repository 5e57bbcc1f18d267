import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/client.js";

async function main() {
  const config = loadConfig();
  // The database (on the embedded one, a process of its own) starts while the app's modules load.
  const opening = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  opening.catch(() => {}); // reported below, once awaited
  const [{ buildApp }, { startBanner }, { loadTls }, { listeningUrls }, { reportSharedGtins }, { ensureFirstAdmin }] = await Promise.all([
    import("./app.js"),
    import("./banner.js"),
    import("./https.js"),
    import("./lan.js"),
    import("./modules/products/products.service.js"),
    import("./modules/users/bootstrap.js"),
  ]);
  // HTTPS=1: the given certificate, or a self-signed one kept in the data folder.
  const tls = config.HTTPS
    ? await loadTls({ certFile: config.HTTPS_CERT, keyFile: config.HTTPS_KEY, folder: join(config.DATA_DIR, "https") })
    : undefined;
  const database = await opening;
  const app = await buildApp({ config, database, tls });
  await ensureFirstAdmin(database.db, config, app.log);
  // Products that were two forms of one GTIN before barcodes were compared as GTINs (migration 0005).
  await reportSharedGtins(database.db, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      // Closes socket.io (onClose hook), then HTTP, then the database so PGlite flushes to disk.
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Under the supervisor (scripts/supervise.mjs, `npm start`): from now on a crash is one of a serving shop, started again.
  process.send?.({ ready: true });
  const { port } = app.server.address() as AddressInfo;
  console.log(
    startBanner({
      urls: listeningUrls({ host: config.HOST, port, https: tls !== undefined }),
      database: database.kind === "pglite" ? `embedded database in ${config.DATA_DIR}` : "PostgreSQL",
      tls,
    }),
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
