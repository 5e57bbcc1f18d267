/**
 * `npm run bench`: the hot paths of a live stream and of a large catalogue, measured against a
 * baseline in the same run (GET /api/health: HTTP + session-less routing, no work), so the
 * figures are ratios that mean the same on a slow or a busy machine.
 *
 * - scan lookup: GET /api/products/barcode/:barcode (what a scan waits for)
 * - tap: PUT /api/products/:id/quantity with a fresh Idempotency-Key (what a SOLD tap waits for)
 * - catalogue: GET /api/products with 100,000 products (what the inventory view loads)
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { buildApp } from "../src/server/app.js";
import { testConfig } from "../src/server/config.js";
import { openDatabase } from "../src/server/db/client.js";
import { ensureFirstAdmin } from "../src/server/modules/users/bootstrap.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CATALOGUE = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const admin = { username: "bench-admin", password: "bench-admin-password" };

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}

async function load(name: string, url: string, opts: Partial<autocannon.Options> = {}): Promise<Row> {
  const result = await autocannon({ url, duration: SECONDS, connections: 10, ...opts });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "blez-bench-"));
  const config = testConfig({
    DATA_DIR: dataDir ?? "./unused",
    DATABASE_URL: process.env.DATABASE_URL,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const app = await buildApp({ config, database, serveClient: false });
  await ensureFirstAdmin(database.db, config, app.log);
  const base = await app.listen({ port: 0, host: "127.0.0.1" });

  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const headers = { cookie, "content-type": "application/json" };
  const created = await fetch(`${base}/api/products`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      barcode: "2000000000015",
      product_name: "Bench Card",
      vendor: "Topps",
      release_year: 2024,
      quantity_on_hand: 500_000_000,
    }),
  });
  const product = (await created.json()) as { id: number; barcode: string };

  const rows: Row[] = [];
  rows.push(await load("baseline GET /api/health", `${base}/api/health`));
  rows.push(await load("scan lookup GET /api/products/barcode/:barcode", `${base}/api/products/barcode/${product.barcode}`, { headers }));
  rows.push(
    await load("tap PUT /api/products/:id/quantity", `${base}/api/products/${product.id}/quantity`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
      requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }) }],
    }),
  );

  // The catalogue: 100,000 products through the import API, then the full list.
  const started = performance.now();
  for (let offset = 0; offset < CATALOGUE; offset += 50_000) {
    const products = Array.from({ length: Math.min(50_000, CATALOGUE - offset) }, (_, i) => ({
      barcode: `B${String(offset + i).padStart(9, "0")}`,
      product_name: `Card ${offset + i}`,
      vendor: ["Topps", "Panini", "Upper Deck", "Bowman"][(offset + i) % 4],
      release_year: String(1990 + ((offset + i) % 35)),
      quantity_on_hand: String((offset + i) % 60),
      is_active: "true",
    }));
    const res = await fetch(`${base}/api/products/import`, { method: "POST", headers, body: JSON.stringify({ products }) });
    if (!res.ok) throw new Error(`import failed: ${res.status} ${await res.text()}`);
  }
  const importSeconds = (performance.now() - started) / 1000;
  rows.push(await load(`catalogue GET /api/products (${CATALOGUE} products)`, `${base}/api/products`, { headers, connections: 2 }));

  const baseline = rows[0] as Row;
  console.log(`\n${database.kind}, ${SECONDS} s per measurement, 10 connections (2 for the catalogue)`);
  console.log("| measurement | req/s | p50 ms | p99 ms | p50 vs baseline |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.p50 / Math.max(baseline.p50, 1)).toFixed(1)}x |`);
  }
  console.log(`\nimport of ${CATALOGUE} products: ${importSeconds.toFixed(1)} s`);

  await app.close();
  await database.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
