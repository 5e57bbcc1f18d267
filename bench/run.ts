/**
 * `npm run bench`: every benchmark in turn. BENCH_ONLY=<name> runs one.
 * - hot-paths (bench/hot-paths/): scan and tap, app against the floor on the same database (ratios,
 *   statements, CPU per request and profiles)
 * - server-memory (bench/hot-paths/memory.ts): the built server's RSS with 100,000 products, settled
 *   and its peak under 200 sockets, lookups and taps
 * - busy-shop (bench/busy-shop/): a live stream with 200 sockets, taps, edits and an import at once,
 *   on PGlite and on PostgreSQL (BENCH_DB=pglite|postgres for one), plus an import vs COPY ratio
 * - reports (bench/reports/): each report endpoint over a year of 1,000,000 quantity audit rows,
 *   p50 of 5 calls, on PGlite and on PostgreSQL (BENCH_DB as above)
 * - webhooks (bench/webhooks/): taps with a webhook on every event whose endpoint answers in 2 s,
 *   against the same taps with no webhook (target ratio 0.9)
 * - prices (bench/prices/): a 300 MB Scryfall-shaped feed over 100,000 products while a streamer taps
 *   (run time, the server's memory growth, taps during the run against taps before it)
 * - inventory-browser (bench/inventory-browser/): the inventory's table and cards at 100,000 products
 *   in Chromium against a plain page (typing, live changes, first load, heap)
 * - stock-takes (bench/stock-takes/): a 10,000-product location counted at 5 scans a second from two
 *   devices, quiet and while a streamer taps; scan-to-answer and scan-to-live-event p50/p95 as ratios,
 *   then the approval of the location with the taps during it
 */
import { runBusyShop } from "./busy-shop/index.js";
import { cleanUp } from "./busy-shop/servers.js";
import { runHotPaths } from "./hot-paths/index.js";
import { runServerMemory } from "./hot-paths/memory.js";
import { runInventoryBrowser } from "./inventory-browser/index.js";
import { runPrices } from "./prices/index.js";
import { runReports } from "./reports/index.js";
import { runStockTakes } from "./stock-takes/index.js";
import { runWebhooks } from "./webhooks/index.js";

const parts: Record<string, () => Promise<void>> = {
  "hot-paths": runHotPaths,
  "server-memory": runServerMemory,
  "busy-shop": runBusyShop,
  reports: runReports,
  webhooks: runWebhooks,
  prices: runPrices,
  "inventory-browser": runInventoryBrowser,
  "stock-takes": runStockTakes,
};

async function main() {
  const only = process.env.BENCH_ONLY;
  if (only && !parts[only]) throw new Error(`BENCH_ONLY=${only}: expected one of ${Object.keys(parts).join(", ")}`);
  for (const [name, run] of Object.entries(parts)) {
    if (!only || only === name) await run();
  }
}

main()
  .then(() => process.exit(0))
  .catch(async (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    await cleanUp().catch(() => {});
    process.exit(1);
  });
