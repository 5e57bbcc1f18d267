/**
 * The hot paths against a floor on the same database (issue 42: a scan and a tap within 10 % of
 * the least a correct server can do): the app and bench/hot-paths/baseline.ts run in one server
 * process (host.ts) on one database; rounds alternate app, floor, app, ... with 10 connections,
 * so both see the same machine. Prints per database req/s, p50 and p99 of each and the ratio
 * app/floor (req/s), the statements each makes per lookup and per tap, then per path a CPU
 * profile of the app under that path's load (its top frames and areas, by self time) and the
 * process's peak RSS.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createDatabase, dropDatabase } from "../busy-shop/servers.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_RATIO = 0.9;
/** Seconds of load per path while the app's CPU profile is taken (not measured). */
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 3);
/** BENCH_PATHS=lookup,tap: only the paths whose names start with one of these words. */
const ONLY_PATHS = process.env.BENCH_PATHS?.split(",").map((word) => word.trim().toLowerCase());

interface Host {
  app: string;
  baseline: string;
  cookie: string;
  product: { id: number; barcode: string };
  statements: { appLookup: number; baselineLookup: number; app: number; appKeyed: number; baseline: number; baselineKeyed: number };
  kind: string;
}

interface Path {
  name: string;
  options: (prefix: string, host: Host) => autocannon.Options;
}

const tapBody = JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" });
const ALL_PATHS: Path[] = [
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
const PATHS = ALL_PATHS.filter((path) => !ONLY_PATHS || ONLY_PATHS.some((word) => path.name.toLowerCase().startsWith(word)));

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
    // The app logs at info as a shop runs it; its lines are not the bench's.
    stdio: ["inherit", "ignore", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (host) => resolve({ host: host as Host, child }));
    child.once("exit", (code) => reject(new Error(`the hot-paths server exited during start-up (code ${code})`)));
  });
}

let commandId = 0;
/** Asks the host process to run one of its commands (host.ts) and waits for its answer. */
function ask<T>(child: ChildProcess, cmd: string): Promise<T> {
  const id = ++commandId;
  return new Promise((resolve) => {
    const onMessage = (m: { id?: number; result?: unknown }) => {
      if (m.id !== id) return;
      child.off("message", onMessage);
      resolve(m.result as T);
    };
    child.on("message", onMessage);
    child.send({ id, cmd });
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
    console.log(`\n#### Hot paths on ${label}: app vs floor, ${ROUNDS} alternating rounds of ${SECONDS} s, 10 connections (medians)\n`);
    console.log("| path | app req/s | app p50 / p99 ms | floor req/s | floor p50 / p99 ms | ratio | target |");
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
      `\nStatements per request (round trips to the database, session check included): lookup app ${s.appLookup}, floor ${s.baselineLookup}; tap app ${s.app}, floor ${s.baseline}; keyed tap app ${s.appKeyed}, floor ${s.baselineKeyed}`,
    );
    console.log(
      `Peak RSS of the process (app and floor, one database connection pool): ${(await ask<number>(child, "rss")).toFixed(0)} MiB`,
    );
    // CPU time per request (medians of alternated windows): steadier where req/s moves with whatever else the machine runs.
    console.log("\n| path | app CPU µs/request | floor CPU µs/request | ratio floor/app |\n| --- | ---: | ---: | ---: |");
    for (const path of PATHS) {
      const cpu = async (prefix: string) => {
        await ask(child, "cpu-start");
        const load = await autocannon({ duration: PROFILE_SECONDS, connections: 10, ...path.options(prefix, host) });
        return (await ask<number>(child, "cpu-stop")) / Math.max(load.requests.total, 1);
      };
      const apps: number[] = [];
      const floors: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        apps.push(await cpu(host.app));
        floors.push(await cpu(host.baseline));
      }
      const app = median(apps);
      const floor = median(floors);
      console.log(`| ${path.name} | ${app.toFixed(0)} | ${floor.toFixed(0)} | ${(floor / app).toFixed(2)} |`);
    }
    const profiled = [
      { who: "App", prefix: host.app },
      { who: "Floor", prefix: host.baseline },
    ];
    for (const path of PATHS) {
      for (const { who, prefix } of profiled) {
        await ask(child, "profile-start");
        const load = await autocannon({ duration: PROFILE_SECONDS, connections: 10, ...path.options(prefix, host) });
        const top = await ask<{ busy: number; frames: string[]; areas: string[]; statements: number }>(child, "profile-stop");
        const perRequest = top.statements / Math.max(load.requests.total, 1);
        console.log(
          `\n${who} CPU profile, ${path.name} (${PROFILE_SECONDS} s, ${load.requests.total} requests, ${perRequest.toFixed(2)} statements each under load; the process busy ${(100 * top.busy).toFixed(0)} % of it; shares of the busy time, self):`,
        );
        console.log(`  areas:  ${top.areas.join(" | ")}`);
        for (const frame of top.frames) console.log(`  ${frame}`);
      }
    }
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
