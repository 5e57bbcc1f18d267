/**
 * The hot-paths bench's server process: the app and the floor (baseline.ts) on ONE database (a
 * fresh embedded one, or DATABASE_URL), each on its own port, so rounds can alternate between
 * them. Before serving it counts the statements each makes per lookup and per tap. Tells the bench
 * over IPC: {app, baseline, cookie, product, statements}; then answers {id, cmd} messages:
 * `profile-start` / `profile-stop` (a CPU profile of this process while the bench sends one
 * path's load: its top frames and areas) and `rss` (this process's peak RSS so far).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
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
    // As a shop runs it (the default level): the app's logger and its per-request child loggers are part of its cost.
    LOG_LEVEL: "info",
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
  const perLookup = async (base: string) => {
    const lookup = () =>
      fetch(`${base}/products/barcode/${product.barcode}`, { headers }).then(async (r) => {
        if (r.status !== 200) throw new Error(`lookup on ${base} answered ${r.status}: ${await r.text()}`);
      });
    for (let i = 0; i < 5; i++) await lookup();
    const before = counter.read();
    const lookups = 20;
    for (let i = 0; i < lookups; i++) await lookup();
    return (counter.read() - before) / lookups;
  };
  const statements = {
    appLookup: await perLookup(`${appUrl}/api`),
    baselineLookup: await perLookup(baselineUrl),
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
  let statementsAtStart = 0;
  let cpuAtStart = process.cpuUsage();
  const profiler = new Session();
  profiler.connect();
  await profiler.post("Profiler.enable");
  const commands: Record<string, () => Promise<unknown>> = {
    "cpu-start": async () => {
      cpuAtStart = process.cpuUsage();
    },
    /** CPU time (user + system) of this process since cpu-start, in microseconds. */
    "cpu-stop": async () => {
      const used = process.cpuUsage(cpuAtStart);
      return used.user + used.system;
    },
    "profile-start": async () => {
      statementsAtStart = counter.read();
      await profiler.post("Profiler.start");
    },
    "profile-stop": async () => ({
      ...topOfProfile((await profiler.post("Profiler.stop")).profile),
      statements: counter.read() - statementsAtStart,
    }),
    rss: async () => peakRssMiB(),
  };
  process.on("message", (m) => {
    if (m === "stop") return void stop();
    const { id, cmd } = m as { id: number; cmd: string };
    const run = commands[cmd];
    if (run) void run().then((result) => process.send?.({ id, result }));
  });
  process.on("disconnect", () => void stop());
  // Both as the prefix of the same paths: {prefix}/products/...
  process.send?.({ app: `${appUrl}/api`, baseline: baselineUrl, cookie, product, statements, kind: database.kind });
}

/** This process's peak resident memory (VmHWM), in MiB. */
function peakRssMiB(): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  return kb ? Number(kb) / 1024 : process.memoryUsage().rss / 1048576;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Where a script lives: a package, our own folder, or Node's internals. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return url.replace(/^node:internal\/([^/]+).*/, "node:$1");
  const own = /\/(src\/[^/]+\/[^/]+|bench\/[^/]+)\//.exec(url)?.[1];
  return own ?? url;
}

/** The profile's self time: the top frames and the top areas, as shares of the busy samples (and the busy share of all). */
function topOfProfile(profile: { nodes: ProfileNode[] }): { busy: number; frames: string[]; areas: string[] } {
  // Shares of the busy time: the process waits for the database (idle) much of the time.
  const busy = profile.nodes.filter((node) => node.callFrame.functionName !== "(idle)");
  const total = busy.reduce((n, node) => n + (node.hitCount ?? 0), 0) || 1;
  const all = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0) || 1;
  const frames = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === "(idle)") continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, "$1");
    const frame = `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`.trim();
    frames.set(frame, (frames.get(frame) ?? 0) + hits);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + hits);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1)}% ${k}`);
  return { busy: total / all, frames: top(frames, 15), areas: top(areas, 12) };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
