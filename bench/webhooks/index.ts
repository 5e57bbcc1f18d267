/**
 * Taps with a webhook subscribed to every event whose endpoint answers in 2 s, against the same
 * taps with no webhook (issue 21: the ratio at least 0.9). The app runs in its own process
 * (host.ts) on a fresh database; the slow endpoint runs here, beside autocannon. Rounds
 * alternate: no webhook, then a webhook added through the API, taps, the webhook deleted (with
 * its backlog of deliveries), and so on; 10 connections tap 50 products in turn.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createDatabase, dropDatabase } from "../busy-shop/servers.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ENDPOINT_DELAY_MS = 2_000;
const TARGET_RATIO = 0.9;

interface Host {
  app: string;
  cookie: string;
  products: number[];
  kind: string;
}

function startHost(databaseUrl?: string): Promise<{ host: Host; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL("./host.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: databaseUrl ?? "" },
  });
  return new Promise((resolve, reject) => {
    child.once("message", (host) => resolve({ host: host as Host, child }));
    child.once("exit", (code) => reject(new Error(`the webhooks bench server exited during start-up (code ${code})`)));
  });
}

async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.send("stop");
  await exited;
}

/** An endpoint that answers every delivery after 2 s. */
async function slowEndpoint() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      setTimeout(() => res.writeHead(204).end(), ENDPOINT_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function taps(host: Host): Promise<{ rps: number; p50: number; p99: number }> {
  let n = 0;
  const result = await autocannon({
    url: `${host.app}/products/${host.products[0]}/quantity`,
    method: "PUT",
    duration: SECONDS,
    connections: 10,
    headers: { cookie: host.cookie, "content-type": "application/json" },
    body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
    requests: [
      {
        setupRequest: (req) => {
          n++;
          return { ...req, path: `/api/products/${host.products[n % host.products.length]}/quantity` };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`taps: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function api(host: Host, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${host.app}${path}`, {
    method,
    headers: { cookie: host.cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

async function measure(label: string, databaseUrl?: string): Promise<void> {
  const endpoint = await slowEndpoint();
  const { host, child } = await startHost(databaseUrl);
  try {
    const without: Awaited<ReturnType<typeof taps>>[] = [];
    const withHook: Awaited<ReturnType<typeof taps>>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      without.push(await taps(host));
      const created = (await (await api(host, "POST", "/webhooks", { url: endpoint.url, events: ["*"] })).json()) as {
        webhook: { id: number };
      };
      withHook.push(await taps(host));
      await api(host, "DELETE", `/webhooks/${created.webhook.id}`);
      // The worker notices within a poll (1 s) that no webhook is left.
      await new Promise((r) => setTimeout(r, 1_500));
    }
    const a = { rps: median(withHook.map((r) => r.rps)), p50: median(withHook.map((r) => r.p50)), p99: median(withHook.map((r) => r.p99)) };
    const b = { rps: median(without.map((r) => r.rps)), p50: median(without.map((r) => r.p50)), p99: median(without.map((r) => r.p99)) };
    // Each webhook round against the round just before it: the machine's load drifts between rounds.
    const ratio = median(withHook.map((r, i) => r.rps / Math.max(without[i]?.rps ?? 0, 1)));
    console.log(
      `\n#### Webhooks on ${label}: taps with a webhook on every event (endpoint answers in 2 s) vs none, ${ROUNDS} alternating rounds of ${SECONDS} s, 10 connections (medians)\n`,
    );
    console.log("| taps | with webhook req/s | p50 / p99 ms | no webhook req/s | p50 / p99 ms | ratio (median of pairs) | target |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    console.log(
      `| PUT /products/:id/quantity | ${a.rps.toFixed(0)} | ${a.p50} / ${a.p99} | ${b.rps.toFixed(0)} | ${b.p50} / ${b.p99} | ${ratio.toFixed(2)} | ${ratio >= TARGET_RATIO ? "ok" : "MISS"} (>= ${TARGET_RATIO}) |`,
    );
    const rounds = (xs: Array<{ rps: number }>) => xs.map((r) => r.rps.toFixed(0)).join(", ");
    console.log(`\nRounds (req/s): with webhook ${rounds(withHook)}; no webhook ${rounds(without)}`);
    console.log(
      `Deliveries the slow endpoint got meanwhile (16 at once per process, 2 s each; the rest wait in the outbox): ${endpoint.received()}`,
    );
  } finally {
    await stopHost(child);
    await endpoint.close();
  }
}

export async function runWebhooks(): Promise<void> {
  const which = process.env.BENCH_DB;
  if (!which || which === "pglite") await measure("the embedded database (PGlite)");
  if (!which || which === "postgres") {
    const db = await createDatabase("webhooks");
    try {
      await measure("PostgreSQL", db.url);
    } finally {
      await dropDatabase(db.name);
    }
  }
}
