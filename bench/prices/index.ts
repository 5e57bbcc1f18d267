/**
 * Market prices at a shop's size: 100,000 products (half found by their Scryfall id, half by set
 * + collector number), a Scryfall-shaped bulk file of 100,000 cards padded to about 300 MB as the
 * real one is, uploaded to a real server process while a streamer taps. Prints how long the run
 * took (read, match, record, propose; target: under 30 s), the server's memory growth while the
 * file streamed (target: under 200 MB) and the taps' p50/p95 during the run against the same taps
 * before it (the ratio; the busy-shop targets hold taps in tens of milliseconds).
 * BENCH_DB=pglite|postgres picks one database; BENCH_PRICE_CARDS and BENCH_PRICE_MB change the sizes.
 */
import { openAsBlob } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { openPglite, openPostgres } from "../../src/server/db/client.js";
import { expectStatus, login, newAgent, parse, request } from "../busy-shop/http.js";
import { ADMIN, cleanUp, createDatabase, startServer, stopServer, tempDir } from "../busy-shop/servers.js";
import { bytes, ms, percentile, sleep } from "../busy-shop/stats.js";
import { seedPriceProducts, writeScryfallFeed } from "./data.js";

const CARDS = Number(process.env.BENCH_PRICE_CARDS ?? 100_000);
const FILE_MB = Number(process.env.BENCH_PRICE_MB ?? 300);
const TAP_EVERY_MS = 50;
const TARGET_RUN_MS = 30_000;
const TARGET_GROWTH_BYTES = 200 * 1024 * 1024;
type Kind = "pglite" | "postgres";

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

async function run(kind: Kind, feedPath: string, feedBytes: number): Promise<void> {
  const dataDir = tempDir("blez-bench-prices-");
  const pg = kind === "postgres" ? await createDatabase("prices") : undefined;
  const database = pg ? await openPostgres(pg.url) : await openPglite(dataDir);
  try {
    await seedPriceProducts(database, CARDS);
  } finally {
    await database.close();
  }
  const server = await startServer(`prices-${kind}`, { dataDir, databaseUrl: pg?.url });
  try {
    const cookie = await login(server.url, ADMIN.username, ADMIN.password);
    const headers = { cookie };
    const product = parse<{ id: number }>(
      expectStatus(await request(`${server.url}/api/products/barcode/PRICE00000001`, { headers }), "lookup", 200),
    );
    const feed = parse<{ id: number }>(
      expectStatus(
        await request(`${server.url}/api/prices/feeds`, { method: "POST", headers, json: { name: "Scryfall bulk", format: "scryfall" } }),
        "feed",
        201,
      ),
    );

    // Taps on their own connection, at a streamer's pace.
    const agent = newAgent(1);
    const tapsWhile = async (busy: () => boolean) => {
      const times: number[] = [];
      while (busy()) {
        const answer = await request(`${server.url}/api/products/${product.id}/quantity`, {
          method: "PUT",
          headers,
          json: { quantity_change: times.length % 2 ? 1 : -1 },
          agent,
        });
        expectStatus(answer, "tap", 200);
        times.push(answer.ms);
        await sleep(TAP_EVERY_MS);
      }
      return times;
    };
    const quietUntil = performance.now() + 5_000;
    const quiet = await tapsWhile(() => performance.now() < quietUntil);

    const pid = server.child.pid ?? 0;
    const before = await rssOf(pid);
    let peak = before;
    let running = true;
    const watch = (async () => {
      while (running) {
        peak = Math.max(peak, await rssOf(pid));
        await sleep(100);
      }
    })();
    const form = new FormData();
    form.append("file", await openAsBlob(feedPath, { type: "application/json" }), "default-cards.json");
    const started = performance.now();
    const upload = fetch(`${server.url}/api/prices/feeds/${feed.id}/run`, { method: "POST", headers, body: form }).then(async (r) => {
      running = false;
      if (r.status !== 200) throw new Error(`run answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as { status: string; records: number; matched: number; proposals: number; error: string | null };
    });
    const busyTaps = tapsWhile(() => running);
    const outcome = await upload.catch((err) => {
      running = false;
      throw err;
    });
    const runMs = performance.now() - started;
    const busy = await busyTaps;
    await watch;
    if (outcome.status !== "done") throw new Error(`the run failed: ${outcome.error}`);

    const growth = peak - before;
    const p = (xs: number[], q: number) => percentile(xs, q);
    console.log(`\nprices (${kind}): ${CARDS.toLocaleString("en")} products, a ${bytes(feedBytes)} Scryfall-shaped file`);
    console.log(
      `  run: ${ms(runMs)} (target ${ms(TARGET_RUN_MS)}): ${outcome.records.toLocaleString("en")} cards read, ` +
        `${outcome.matched.toLocaleString("en")} matched, ${outcome.proposals.toLocaleString("en")} proposals`,
    );
    console.log(
      `  server memory: ${bytes(before)} before, ${bytes(peak)} at most, growth ${bytes(growth)} (target under ${bytes(TARGET_GROWTH_BYTES)})`,
    );
    console.log(
      `  taps: before p50 ${ms(p(quiet, 50))} p95 ${ms(p(quiet, 95))}; during the run p50 ${ms(p(busy, 50))} p95 ${ms(p(busy, 95))} ` +
        `(${busy.length} taps; p95 ratio ${(p(busy, 95) / Math.max(p(quiet, 95), 0.1)).toFixed(1)}x)`,
    );
  } finally {
    await stopServer(server);
  }
}

export async function runPrices(): Promise<void> {
  const dir = tempDir("blez-bench-feed-");
  const feedPath = join(dir, "default-cards.json");
  const feedBytes = await writeScryfallFeed(feedPath, CARDS, FILE_MB);
  const only = process.env.BENCH_DB as Kind | undefined;
  for (const kind of ["pglite", "postgres"] as const) {
    if (!only || only === kind) await run(kind, feedPath, feedBytes);
  }
  await cleanUp();
}
