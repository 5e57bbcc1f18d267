/**
 * The hot paths of a live stream and of a large catalogue, measured against a baseline in the
 * same run (GET /api/health: HTTP + session-less routing, no work), so the figures are ratios
 * that mean the same on a slow or a busy machine. One real server process (`src/server/main.ts`)
 * on a fresh PGlite DATA_DIR, or on a fresh PostgreSQL database when DATABASE_URL is set.
 *
 * - scan lookup: GET /api/products/barcode/:barcode (what a scan waits for)
 * - tap: PUT /api/products/:id/quantity with a fresh Idempotency-Key (what a SOLD tap waits for)
 * - catalogue: GET /api/products with 100,000 products (what the inventory view loads)
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import autocannon from "autocannon";
import { expectStatus, login, parse, request } from "./busy-shop/http.js";
import { ADMIN, createDatabase, dropDatabase, removeDir, startServer, stopServer, tempDir } from "./busy-shop/servers.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CATALOGUE = Number(process.env.BENCH_PRODUCTS ?? 100_000);

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

export async function runHotPaths(): Promise<void> {
  const dir = tempDir("blez-bench-");
  const db = process.env.DATABASE_URL ? await createDatabase("hot") : undefined;
  const server = await startServer("hot-paths", { dataDir: join(dir, "data"), databaseUrl: db?.url });
  try {
    const base = server.url;
    const cookie = await login(base, ADMIN.username, ADMIN.password);
    const headers = { cookie, "content-type": "application/json" };
    const created = expectStatus(
      await request(`${base}/api/products`, {
        method: "POST",
        headers: { cookie },
        json: { barcode: "2000000000015", product_name: "Bench Card", vendor: "Topps", release_year: 2024, quantity_on_hand: 500_000_000 },
      }),
      "create product",
      201,
    );
    const product = parse<{ id: number; barcode: string }>(created);

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
      expectStatus(
        await request(`${base}/api/products/import`, { method: "POST", headers: { cookie }, json: { products }, timeoutMs: 600_000 }),
        "import",
        200,
      );
    }
    const importSeconds = (performance.now() - started) / 1000;
    rows.push(await load(`catalogue GET /api/products (${CATALOGUE} products)`, `${base}/api/products`, { headers, connections: 2 }));

    const baseline = rows[0] as Row;
    console.log(`\n${db ? "postgres" : "pglite"} (one server process), ${SECONDS} s per measurement, 10 connections (2 for the catalogue)`);
    console.log("| measurement | req/s | p50 ms | p99 ms | p50 vs baseline |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const r of rows) {
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.p50 / Math.max(baseline.p50, 1)).toFixed(1)}x |`);
    }
    console.log(`\nimport of ${CATALOGUE} products: ${importSeconds.toFixed(1)} s`);
  } finally {
    await stopServer(server);
    if (db) await dropDatabase(db.name);
    removeDir(dir);
  }
}
