import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { buildApp } from "./app.js";
import { startBanner } from "./banner.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/client.js";
import { loadTls } from "./https.js";
import { listeningUrls } from "./lan.js";
import { reportSharedGtins } from "./modules/products/products.service.js";
import { ensureFirstAdmin } from "./modules/users/bootstrap.js";

async function main() {
  const config = loadConfig();
  // HTTPS=1: the given certificate, or a self-signed one kept in the data folder.
  const tls = config.HTTPS
    ? await loadTls({ certFile: config.HTTPS_CERT, keyFile: config.HTTPS_KEY, folder: join(config.DATA_DIR, "https") })
    : undefined;
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
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
