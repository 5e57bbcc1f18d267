/**
 * The hot-paths bench's server process: the app and the bare baseline on ONE database (a fresh
 * embedded one, or DATABASE_URL), each on its own port, so rounds can alternate between them.
 * Before serving it counts the statements each makes per tap. Tells the bench over IPC:
 * {app, baseline, cookie, product, statements}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { buildApp } from "../../src/server/app.js";
import { openDatabase } from "../../src/server/db/client.js";
import { ensureFirstAdmin } from "../../src/server/modules/users/bootstrap.js";
import { testConfig } from "../../src/server/test/config.js";
import { buildBaseline } from "./baseline.js";

const ADMIN = { username: "bench-admin", password: "bench-admin-password" };
const STOCK = 500_000_000;

/** Counts the statements sent through the pool: every query, pool.query's too, runs on a checked-out client. */
function countStatements(pool: pg.Pool) {
  let count = 0;
  pool.on("acquire", (client) => {
    const marked = client as pg.PoolClient & { counted?: boolean };
    if (marked.counted) return;
    marked.counted = true;
    const query = client.query.bind(client);
    (client as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      count++;
      return query(...args);
    };
  });
  return { read: () => count };
}

async function main() {
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "blez-hot-"));
  const config = testConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir ?? "./unused",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const app = await buildApp({ config, database, serveClient: false });
  await ensureFirstAdmin(database.db, config, app.log);
  const baseline = buildBaseline(database.pool);
  const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  const baselineUrl = await baseline.listen({ port: 0, host: "127.0.0.1" });

  const login = await fetch(`${appUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const headers = { cookie, "content-type": "application/json" };
  const created = await fetch(`${appUrl}/api/products`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      barcode: "2000000000015",
      product_name: "Bench Card",
      vendor: "Topps",
      release_year: 2024,
      quantity_on_hand: STOCK,
    }),
  });
  const product = (await created.json()) as { id: number; barcode: string };

  // Statements per tap, each path alone (warm: the first taps prepare their statements).
  const counter = countStatements(database.pool);
  const perTap = async (base: string, keyed: boolean) => {
    const tap = (i: number) =>
      fetch(`${base}/products/${product.id}/quantity`, {
        method: "PUT",
        headers: { ...headers, ...(keyed ? { "idempotency-key": `count-${base}-${i}-${Date.now()}` } : {}) },
        body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
      }).then(async (r) => {
        if (r.status !== 200) throw new Error(`tap on ${base} answered ${r.status}: ${await r.text()}`);
      });
    for (let i = 0; i < 5; i++) await tap(i);
    const before = counter.read();
    const taps = 20;
    for (let i = 0; i < taps; i++) await tap(100 + i);
    return (counter.read() - before) / taps;
  };
  const statements = {
    app: await perTap(`${appUrl}/api`, false),
    appKeyed: await perTap(`${appUrl}/api`, true),
    baseline: await perTap(baselineUrl, false),
    baselineKeyed: await perTap(baselineUrl, true),
  };

  const stop = async () => {
    await baseline.close();
    await app.close();
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", (m) => m === "stop" && void stop());
  process.on("disconnect", () => void stop());
  // Both as the prefix of the same paths: {prefix}/products/...
  process.send?.({ app: `${appUrl}/api`, baseline: baselineUrl, cookie, product, statements, kind: database.kind });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
