/**
 * The server's memory with 100,000 products under the hot paths' load (issue 42: RSS under 200
 * MiB). The server as `npm start` runs it (built first), on a fresh database of each kind with the
 * catalogue imported by another server process (not measured), then: its RSS once settled, and its peak RSS while 200
 * screens are open and 10 connections look products up and 10 tap (BENCH_MEMORY_SECONDS, default
 * 20), read from /proc every 100 ms. BENCH_DB=pglite|postgres picks one database.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { login } from "../busy-shop/http.js";
import { catalogueRows, seedCatalogue } from "../busy-shop/seed.js";
import { ADMIN, cleanUp, createDatabase, ROOT, startServer, stopServer, tempDir } from "../busy-shop/servers.js";
import { connectSockets } from "../busy-shop/sockets.js";
import { sleep } from "../busy-shop/stats.js";

const PRODUCTS = Number(process.env.BENCH_MEMORY_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 20);
const SOCKETS = 200;
const TARGET_MIB = 200;

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function measure(kind: "pglite" | "postgres"): Promise<string> {
  const pg = kind === "postgres" ? await createDatabase("memory") : undefined;
  const db = { dataDir: tempDir("blez-bench-memory-"), databaseUrl: pg?.url, built: true };
  // The catalogue imported by a server of its own, stopped: measured is a server that starts on it.
  const seeder = await startServer(`memory-seed-${kind}`, db);
  try {
    await seedCatalogue(seeder.url, await login(seeder.url, ADMIN.username, ADMIN.password), catalogueRows(PRODUCTS));
  } finally {
    await stopServer(seeder);
  }
  const server = await startServer(`memory-${kind}`, db);
  try {
    const pid = server.child.pid as number;
    const admin = await login(server.url, ADMIN.username, ADMIN.password);
    // The first list built and the mirror loaded, as after a shop's first screens.
    await fetch(`${server.url}/api/products`, { headers: { cookie: admin, "accept-encoding": "br" } }).then((r) => r.arrayBuffer());
    await sleep(10_000);
    const settled = rssMiB(pid);
    const screens = await connectSockets([{ url: server.url, cookie: admin }], SOCKETS);
    const [product] = (await (await fetch(`${server.url}/api/products?limit=1`, { headers: { cookie: admin } })).json()) as Array<{
      id: number;
      barcode: string;
    }>;
    if (!product) throw new Error("memory bench: no product");
    let peak = rssMiB(pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 100);
    const [lookups, taps] = await Promise.all([
      autocannon({
        url: `${server.url}/api/products/barcode/${product.barcode}`,
        connections: 10,
        duration: SECONDS,
        headers: { cookie: admin },
      }),
      autocannon({
        url: `${server.url}/api/products/${product.id}/quantity`,
        method: "PUT",
        connections: 10,
        duration: SECONDS,
        headers: { cookie: admin, "content-type": "application/json" },
        body: JSON.stringify({ quantity_change: 1 }),
      }),
    ]);
    clearInterval(sampler);
    for (const s of screens) s.close();
    return (
      `server memory (${kind}): ${PRODUCTS.toLocaleString("en")} products; settled ${settled.toFixed(0)} MiB; under load ` +
      `(${SOCKETS} sockets, ${lookups.requests.average.toFixed(0)} lookups/s and ${taps.requests.average.toFixed(0)} taps/s for ${SECONDS} s) ` +
      `peak ${peak.toFixed(0)} MiB, target under ${TARGET_MIB}: ${peak < TARGET_MIB ? "met" : "NOT met"}`
    );
  } finally {
    await stopServer(server);
  }
}

export async function runServerMemory(): Promise<void> {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, stdio: "ignore" });
  const which = process.env.BENCH_DB;
  try {
    if (!which || which === "pglite") console.log(await measure("pglite"));
    if (!which || which === "postgres") console.log(await measure("postgres"));
  } finally {
    await cleanUp();
  }
}
