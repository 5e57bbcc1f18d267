/**
 * Where a feed's run spends its time, in-process and without a server: the bench's products and
 * file (smaller by default), one run, and every bulk statement timed by its first words (sum,
 * count, longest: on the embedded database a tap waits for at most the longest). Run it twice to
 * see a second run's (unchanged prices and proposals) figures too.
 * `npx tsx bench/prices/phases.ts` (BENCH_DB=pglite|postgres, BENCH_PRICE_CARDS, BENCH_PRICE_MB, BENCH_PRICE_RUNS).
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openPglite, openPostgres } from "../../src/server/db/client.js";
import { rowsOf } from "../../src/server/db/sql.js";
import { runFeed } from "../../src/server/modules/prices/price-runs.js";
import { cleanUp, createDatabase, tempDir } from "../busy-shop/servers.js";
import { seedPriceProducts, writeScryfallFeed } from "./data.js";

const CARDS = Number(process.env.BENCH_PRICE_CARDS ?? 20_000);
const FILE_MB = Number(process.env.BENCH_PRICE_MB ?? 20);
const RUNS = Number(process.env.BENCH_PRICE_RUNS ?? 2);
const kind = (process.env.BENCH_DB ?? "pglite") as "pglite" | "postgres";

type Timing = { sum: number; count: number; max: number };
const timings = new Map<string, Timing>();

/** Every statement on any connection (the harness runs nothing else), timed by its first words. */
function timeStatements(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string })?.text ?? "?");
    const key = text.replace(/\s+/g, " ").trim().slice(0, 48);
    const started = performance.now();
    const done = () => {
      const ms = performance.now() - started;
      const t = timings.get(key) ?? { sum: 0, count: 0, max: 0 };
      t.sum += ms;
      t.count++;
      t.max = Math.max(t.max, ms);
      timings.set(key, t);
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (...answer: unknown[]) => {
        done();
        return callback(...answer);
      };
      return query.apply(this, args);
    }
    const answer = query.apply(this, args);
    if (answer instanceof Promise) answer.then(done, done);
    return answer;
  };
}

async function main(): Promise<void> {
  const dir = tempDir("blez-bench-phases-");
  const feedPath = join(dir, "default-cards.json");
  await writeScryfallFeed(feedPath, CARDS, FILE_MB);
  const pg = kind === "postgres" ? await createDatabase("phases") : undefined;
  const database = pg ? await openPostgres(pg.url) : await openPglite(join(dir, "data"));
  try {
    await seedPriceProducts(database, CARDS);
    const [feed] = rowsOf<{ id: number }>(
      await database.db.execute(sql`insert into price_feeds (name, format) values ('Scryfall bulk', 'scryfall') returning id`),
    );
    if (!feed) throw new Error("no feed");
    timeStatements();
    for (let n = 1; n <= RUNS; n++) {
      timings.clear();
      const started = performance.now();
      const outcome = await runFeed(database, {
        feed: { id: feed.id, format: "scryfall" },
        trigger: "upload",
        startedBy: null,
        input: createReadStream(feedPath, { highWaterMark: 64 * 1024 }),
        currency: "USD",
        timezone: "UTC",
      });
      const total = performance.now() - started;
      console.log(
        `\n${kind} run ${n}: ${(total / 1000).toFixed(1)} s, ${outcome.status} ${outcome.records} records, ${outcome.matched} matched, ${outcome.proposals} proposals ${outcome.error ?? ""}`,
      );
      let db = 0;
      for (const [key, t] of [...timings].sort((a, b) => b[1].sum - a[1].sum)) {
        db += t.sum;
        console.log(`  ${t.sum.toFixed(0).padStart(7)} ms ${String(t.count).padStart(5)}x max ${t.max.toFixed(0).padStart(5)} ms  ${key}`);
      }
      console.log(`  statements ${db.toFixed(0)} ms, the rest ${(total - db).toFixed(0)} ms`);
    }
  } finally {
    await database.close();
    await cleanUp();
  }
}

await main();
