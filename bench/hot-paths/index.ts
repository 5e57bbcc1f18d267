/**
 * The hot paths against a bare baseline on the same database (issue: a scan and a tap cost what
 * the database costs): the app and bench/hot-paths/baseline.ts run in one server process
 * (host.ts) on one database; rounds alternate app, baseline, app, ... with 10 connections, so
 * both see the same machine. Prints per database req/s, p50 and p99 of each and the ratio
 * app/baseline (req/s), and the statements each makes per tap.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createDatabase, dropDatabase } from "../busy-shop/servers.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_RATIO = 0.8;

interface Host {
  app: string;
  baseline: string;
  cookie: string;
  product: { id: number; barcode: string };
  statements: { app: number; appKeyed: number; baseline: number; baselineKeyed: number };
  kind: string;
}

interface Path {
  name: string;
  options: (prefix: string, host: Host) => autocannon.Options;
}

const tapBody = JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" });
const PATHS: Path[] = [
  {
    name: "lookup GET /products/barcode/:b",
    options: (prefix, host) => ({ url: `${prefix}/products/barcode/${host.product.barcode}`, headers: { cookie: host.cookie } }),
  },
  {
    name: "tap PUT /products/:id/quantity",
    options: (prefix, host) => ({
      url: `${prefix}/products/${host.product.id}/quantity`,
      method: "PUT",
      headers: { cookie: host.cookie, "content-type": "application/json" },
      body: tapBody,
    }),
  },
  {
    name: "tap with Idempotency-Key",
    options: (prefix, host) => ({
      url: `${prefix}/products/${host.product.id}/quantity`,
      method: "PUT",
      headers: { cookie: host.cookie, "content-type": "application/json" },
      body: tapBody,
      requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }) }],
    }),
  },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function round(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ duration: SECONDS, connections: 10, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const summary = (rounds: Figures[]): Figures => ({
  rps: median(rounds.map((r) => r.rps)),
  p50: median(rounds.map((r) => r.p50)),
  p99: median(rounds.map((r) => r.p99)),
});

function startHost(databaseUrl?: string): Promise<{ host: Host; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL("./host.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: databaseUrl ?? "" },
  });
  return new Promise((resolve, reject) => {
    child.once("message", (host) => resolve({ host: host as Host, child }));
    child.once("exit", (code) => reject(new Error(`the hot-paths server exited during start-up (code ${code})`)));
  });
}

async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send("stop");
  await exited;
}

async function measure(label: string, databaseUrl?: string): Promise<void> {
  const { host, child } = await startHost(databaseUrl);
  try {
    console.log(
      `\n#### Hot paths on ${label}: app vs bare baseline, ${ROUNDS} alternating rounds of ${SECONDS} s, 10 connections (medians)\n`,
    );
    console.log("| path | app req/s | app p50 / p99 ms | baseline req/s | baseline p50 / p99 ms | ratio | target |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for (const path of PATHS) {
      const app: Figures[] = [];
      const base: Figures[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        app.push(await round(`app ${path.name}`, path.options(host.app, host)));
        base.push(await round(`baseline ${path.name}`, path.options(host.baseline, host)));
      }
      const a = summary(app);
      const b = summary(base);
      const ratio = a.rps / Math.max(b.rps, 1);
      console.log(
        `| ${path.name} | ${a.rps.toFixed(0)} | ${a.p50} / ${a.p99} | ${b.rps.toFixed(0)} | ${b.p50} / ${b.p99} | ${ratio.toFixed(2)} | ${ratio >= TARGET_RATIO ? "ok" : "MISS"} (>= ${TARGET_RATIO}) |`,
      );
    }
    const s = host.statements;
    console.log(
      `\nStatements per tap (round trips to the database, session check included): app ${s.app}, keyed ${s.appKeyed}; baseline ${s.baseline}, keyed ${s.baselineKeyed}`,
    );
  } finally {
    await stopHost(child);
  }
}

export async function runHotPaths(): Promise<void> {
  const which = process.env.BENCH_DB;
  if (!which || which === "pglite") await measure("the embedded database (PGlite)");
  if (!which || which === "postgres") {
    const db = await createDatabase("hot");
    try {
      await measure("PostgreSQL", db.url);
    } finally {
      await dropDatabase(db.name);
    }
  }
}
