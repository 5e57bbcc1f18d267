/**
 * `npx tsx bench/import-10k.ts`: imports 10,000 new products, previews 10,000 changes, then
 * imports those 10,000 updates into a fresh database (PGlite in a temporary DATA_DIR, or, when
 * DATABASE_URL is set, a new PostgreSQL database beside it, dropped afterwards) through the real
 * app over HTTP, and prints the times.
 * BENCH_IMPORT_ROWS changes the row count.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { openPglite } from "../src/server/db/client.js";
import { productAudit, quantityAudit } from "../src/server/db/schema.js";
import { testConfig } from "../src/server/test/config.js";
import { createUser } from "../src/server/test/factories.js";
import { createTestDatabase } from "../src/server/test/test-app.js";

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const password = "bench-import-password";

function rows(round: number) {
  return Array.from({ length: ROWS }, (_, i) => ({
    barcode: `97${String(i).padStart(11, "0")}`,
    product_name: `Bench Card #${i}`,
    vendor: round === 0 ? "Topps" : "Panini",
    release_year: String(2000 + (i % 25)),
    quantity_on_hand: String(round === 0 ? i % 50 : (i % 50) + 1),
    is_active: i % 10 === 0 ? "no" : "yes",
  }));
}

async function main() {
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "blez-import-bench-"));
  const fresh = dataDir ? { database: await openPglite(dataDir), drop: async () => {} } : await createTestDatabase();
  const { database } = fresh;
  const config = testConfig({ DATA_DIR: dataDir ?? "./unused" });
  const app = await buildApp({ config, database, serveClient: false });
  try {
    const base = await app.listen({ port: 0, host: "127.0.0.1" });
    const user = await createUser(database.db, { role: "manager", password });
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: user.username, password }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

    const post = async (label: string, body: unknown, dryRun = false) => {
      const started = performance.now();
      const res = await fetch(`${base}/api/products/import${dryRun ? "?dry_run=true" : ""}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const result = (await res.json()) as { created: number; updated: number; skipped: number; errors: string[] };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(result)}`);
      console.log(
        `${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(6)} s  created ${result.created}, updated ${result.updated}, skipped ${result.skipped}, errors ${result.errors.length}`,
      );
      return result;
    };

    console.log(`${ROWS} rows on ${database.kind}${dataDir ? ` (${dataDir})` : ""}`);
    const first = await post(`import ${ROWS} new rows`, { products: rows(0) });
    const preview = await post(`dry run of ${ROWS} changed rows`, { products: rows(1) }, true);
    const second = await post(`import ${ROWS} updates`, { products: rows(1) });
    const again = await post(`import the same ${ROWS} again`, { products: rows(1) });
    if (first.created !== ROWS || preview.updated !== ROWS || second.updated !== ROWS || again.skipped !== ROWS) {
      throw new Error("unexpected import counts");
    }
    const [audits] = await database.db.select({ n: count() }).from(productAudit);
    const [quantities] = await database.db.select({ n: count() }).from(quantityAudit);
    console.log(`audit rows: ${audits?.n} product, ${quantities?.n} quantity`);
  } finally {
    await app.close();
    await database.close();
    await fresh.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
