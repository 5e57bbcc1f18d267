/**
 * Reports on a year of history (issue 22): 1,000,000 quantity audit rows spread over the last
 * 365 days, seeded in SQL with generate_series, then each report endpoint asked 5 times for a
 * one-year range through a real server process; prints the p50 (targets: under 300 ms on
 * PostgreSQL, under 1 s on the embedded database) with the row counts, and how long the
 * start-up fill of the daily stock value and roll-up of the sales take for that year (done before
 * the server starts, as its reports job would at its first start).
 * BENCH_DB=pglite|postgres picks one database; BENCH_REPORT_ROWS changes the row count.
 */
import { sql } from "drizzle-orm";
import { type Database, openPglite, openPostgres } from "../../src/server/db/client.js";
import { rowsOf } from "../../src/server/db/sql.js";
import { fillStockValueDays, lastClosedDay, rollUpSales } from "../../src/server/modules/reports/reports.repo.js";
import { expectStatus, login, parse, request } from "../busy-shop/http.js";
import { ADMIN, adminQuery, cleanUp, createDatabase, startServer, stopServer, tempDir } from "../busy-shop/servers.js";

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const PRODUCTS = 10_000;
const SHOWS = 100;
const CALLS = 5;
const TZ = "America/New_York";
const TARGET_MS = { postgres: 300, pglite: 1000 } as const;
type Kind = keyof typeof TARGET_MS;

/**
 * The year: products with prices, costs and reorder points; a two-hour show every third day;
 * audit rows one every 365 days / ROWS: 70% streamer sales (those made during a show belong to
 * it), 2% undos, the rest counts, imports and additions that are no sales.
 */
export async function seed(database: Database): Promise<{ rows: number; sales: number }> {
  const db = database.db;
  await db.execute(sql`
    insert into products (barcode, product_name, vendor, quantity_on_hand, price, cost, reorder_point, revision, created_at)
    select 'BENCH' || lpad(g::text, 8, '0'), 'Bench card ' || g, 'Vendor ' || (g % 40), g % 30, 100 + g % 4900, 50 + g % 2000,
      case when g % 7 = 0 then 5 end, take_revision(), now() - interval '400 days'
    from generate_series(1, ${PRODUCTS}) g`);
  // A two-hour show every third day; the taps made during one belong to it (streams are contiguous).
  await db.execute(sql`
    insert into shows (name, started_by_name, started_at, ended_at, ended_by_name)
    select 'Show ' || g, 'bench', now() - (g * 3 + 1.0 / 12) * interval '1 day', now() - g * 3 * interval '1 day', 'bench'
    from generate_series(1, ${SHOWS}) g`);
  await db.execute(sql`
    insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before, quantity_after,
      transaction_type, notes, user_name, timestamp, show_id, unit_price)
    select p, 'Bench card ' || p, 'BENCH' || lpad(p::text, 8, '0'), chg, 10, 10 + chg, kind, notes, 'bench',
      now() - ago * interval '1 day',
      case when kind = 'adjustment' and chg < 0 and floor(ago / 3) between 1 and ${SHOWS} and ago - 3 * floor(ago / 3) < 1.0 / 12
        then (select id from shows where name = 'Show ' || floor(ago / 3)::int) end,
      100 + p % 4900
    from (
      select g, 365.0 * (1 - g::float8 / ${ROWS}) as ago, (1 + (g::bigint * 7919) % ${PRODUCTS})::int as p,
        case when g % 100 < 70 then -1 when g % 100 < 72 then 1 when g % 100 < 90 then 2 else 5 end as chg,
        case when g % 100 < 90 then 'adjustment' else 'import' end as kind,
        case when g % 100 < 70 then 'Streamer adjustment' when g % 100 < 72 then 'Undo'
             when g % 100 < 90 then 'Manual adjustment' else null end as notes
      from generate_series(1, ${ROWS}) g
    ) s`);
  await db.execute(sql`analyze`);
  const [count] = rowsOf<{ rows: string; sales: string }>(
    await db.execute(sql`
      select count(*) as rows, count(*) filter (where transaction_type = 'adjustment'
        and (show_id is not null or notes in ('Streamer adjustment', 'Undo'))) as sales from quantity_audit`),
  );
  return { rows: Number(count?.rows), sales: Number(count?.sales) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function run(kind: Kind): Promise<void> {
  const dataDir = tempDir("blez-bench-reports-");
  const pg = kind === "postgres" ? await createDatabase("reports") : undefined;
  const seedStart = performance.now();
  const database = pg ? await openPostgres(pg.url) : await openPglite(dataDir);
  let fillMs: number;
  let rollMs: number;
  let counts: { rows: number; sales: number };
  try {
    counts = await seed(database);
    // What the server's reports job does at its first start after a year of history.
    const closed = await lastClosedDay(database.db, TZ, 60);
    const fillStart = performance.now();
    await fillStockValueDays(database.db, { lastDay: closed.yesterday, tz: TZ });
    fillMs = performance.now() - fillStart;
    const rollStart = performance.now();
    await rollUpSales(database.db, { through: closed.settled, tz: TZ });
    rollMs = performance.now() - rollStart;
  } finally {
    await database.close();
  }
  const seedMs = performance.now() - seedStart;

  process.env.TIMEZONE = TZ;
  const server = await startServer(`reports-${kind}`, { dataDir, databaseUrl: pg?.url });
  try {
    const cookie = await login(server.url, ADMIN.username, ADMIN.password);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${from}&to=${to}`;
    const calls: Array<[string, string]> = [
      ["sales by day", `/api/reports/sales?${range}&by=day`],
      ["sales by week", `/api/reports/sales?${range}&by=week`],
      ["sales by month", `/api/reports/sales?${range}&by=month`],
      ["top sellers", `/api/reports/top-sellers?${range}`],
      ["stock value", `/api/reports/stock-value?${range}`],
      ["slow movers", "/api/reports/slow-movers?days=90"],
      ["shows", `/api/reports/shows?${range}`],
      ["reorder", "/api/reports/reorder"],
    ];
    const lines: string[] = [];
    let worst = 0;
    for (const [name, path] of calls) {
      const times: number[] = [];
      let size = "";
      for (let i = 0; i < CALLS; i++) {
        const answer = expectStatus(await request(`${server.url}${path}`, { headers: { cookie } }), name, 200);
        times.push(answer.ms);
        if (i === 0) size = describeAnswer(name, parse(answer));
      }
      const p50 = median(times);
      worst = Math.max(worst, p50);
      lines.push(`    ${name.padEnd(15)} p50 ${p50.toFixed(0).padStart(5)} ms  (${times.map((t) => t.toFixed(0)).join(", ")})  ${size}`);
    }
    const verdict = worst < TARGET_MS[kind] ? "under" : "OVER";
    console.log(
      `reports (${kind}): ${counts.rows.toLocaleString("en")} quantity audit rows over a year (${counts.sales.toLocaleString("en")} sale taps), ` +
        `${PRODUCTS.toLocaleString("en")} products, ${SHOWS} shows; seeded in ${(seedMs / 1000).toFixed(1)} s; ` +
        `first start: stock value for 365 days filled in ${fillMs.toFixed(0)} ms, sales rolled up in ${rollMs.toFixed(0)} ms\n` +
        `  one-year range, p50 of ${CALLS} calls, worst ${worst.toFixed(0)} ms: ${verdict} the ${TARGET_MS[kind]} ms target\n${lines.join("\n")}`,
    );
  } finally {
    await stopServer(server);
  }
}

/** What an answer holds, in a few words (its row counts). */
function describeAnswer(name: string, body: unknown): string {
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.buckets)) {
    const totals = b.totals as { units: number };
    return `${b.buckets.length} buckets, ${totals.units.toLocaleString("en")} units`;
  }
  if (Array.isArray(b.days)) return `${b.days.length} days`;
  if (name === "slow movers") return `${(b.totals as { products: number }).products} products`;
  if (Array.isArray(b.products)) return `${b.products.length} products`;
  if (Array.isArray(b.shows)) return `${b.shows.length} shows`;
  if (Array.isArray(b.vendors))
    return `${b.vendors.length} vendors, ${(b.vendors as Array<{ products: unknown[] }>).reduce((n, v) => n + v.products.length, 0)} products`;
  return "";
}

export async function runReports(): Promise<void> {
  const which = process.env.BENCH_DB ?? "both";
  const kinds: Kind[] = which === "both" ? ["pglite", "postgres"] : [which as Kind];
  if (kinds.includes("postgres")) await adminQuery("select 1");
  try {
    for (const kind of kinds) await run(kind);
  } finally {
    await cleanUp();
  }
}
