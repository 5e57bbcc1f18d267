import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate } from "../contract/events.js";
import type { Product } from "../contract/products.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "./test/server-processes.js";

/**
 * Two real server processes on one PostgreSQL database, taps running, while the database drops
 * every connection of theirs again and again, and then refuses connections for a while (as a
 * restart does). The PostgreSQL server itself keeps running: other tests use it meanwhile.
 */

const START_STOCK = 100_000;
const TAPPERS = 4;
/** An answer to a tap: an HTTP status, or "dropped" when the connection failed without one. */
type Outcome = number | "dropped";

let cluster: ServerProcesses;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_faults");
  [a, b] = (await Promise.all([cluster.start(), cluster.start()])) as [ServerProcess, ServerProcess];
}, 180_000);

afterAll(async () => {
  await cluster?.acceptConnections(true).catch(() => {});
  await cluster?.close();
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One tap as the client sends it: retried with its key until it gets an answer that is not a 503. */
async function tap(
  server: ServerProcess,
  cookie: string,
  productId: number,
  outcomes: Outcome[],
): Promise<{ key: string; status: number }> {
  const key = randomUUID();
  for (;;) {
    let status: Outcome;
    try {
      const res = await fetch(`${server.url}/api/products/${productId}/quantity`, {
        method: "PUT",
        headers: { cookie, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ quantity_change: -1, reason: "Streamer adjustment" }),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = "dropped";
    }
    outcomes.push(status);
    if (status !== 503) return { key, status: status === "dropped" ? -1 : status };
    await sleep(100);
  }
}

describe("database faults", () => {
  it("taps ride out dropped connections and an outage: only 200/503 answers, each acknowledged tap counted once, live events resume", async () => {
    const cookies = [await login(a, ADMIN.username, ADMIN.password), await login(b, ADMIN.username, ADMIN.password)] as const;
    const created = await api<Product>(a, cookies[0], "POST", "/api/products", {
      barcode: `FAULT-${randomUUID().slice(0, 8)}`,
      product_name: "Fault Card",
      vendor: "Topps",
      quantity_on_hand: START_STOCK,
    });
    expect(created.status).toBe(201);
    const productId = created.body.id;
    // A socket on B watches the live events of taps made through A.
    const watcher = await cluster.onlineAt(b, cookies[1]);

    const outcomes: Outcome[] = [];
    const acknowledged: string[] = [];
    const health: number[] = [];
    let running = true;
    const tappers = Array.from({ length: TAPPERS }, async (_, i) => {
      const server = i % 2 === 0 ? a : b;
      while (running) {
        const { key, status } = await tap(server, cookies[(i % 2) as 0 | 1], productId, outcomes);
        if (status === 200) acknowledged.push(key);
        await sleep(20);
      }
    });

    // Connections dropped again and again while taps run...
    await sleep(500);
    for (let round = 0; round < 6; round++) {
      await cluster.terminateConnections();
      await sleep(300 + round * 100);
    }
    // ...then an outage: no connection accepted for a while.
    await cluster.acceptConnections(false);
    await cluster.terminateConnections();
    for (let i = 0; i < 10; i++) {
      health.push((await fetch(`${a.url}/api/health`)).status);
      await sleep(200);
    }
    await cluster.acceptConnections(true);
    await sleep(1_000);
    running = false;
    await Promise.all(tappers);

    // The processes never went down, and never answered anything but 200 or 503.
    expect(a.child.exitCode, a.output.join("")).toBeNull();
    expect(b.child.exitCode, b.output.join("")).toBeNull();
    const unexpected = outcomes.filter((o) => o !== 200 && o !== 503);
    expect(unexpected, `${a.output.join("")}\n${b.output.join("")}`).toEqual([]);
    expect(outcomes.filter((o) => o === 503).length).toBeGreaterThan(0);
    expect(health).toContain(503);
    expect(acknowledged.length).toBeGreaterThan(0);

    // Every acknowledged tap is in the stock, and in the audit trail, exactly once.
    const after = await api<Product>(a, cookies[0], "GET", `/api/products/barcode/${created.body.barcode}`);
    expect(after.status).toBe(200);
    expect(after.body.quantity_on_hand).toBe(START_STOCK - acknowledged.length);
    const [audit] = await cluster.query<{ n: number }>(
      "select count(*)::int as n from quantity_audit where product_id = $1 and transaction_type = 'adjustment'",
      [productId],
    );
    expect(audit?.n).toBe(acknowledged.length);

    // The adapters' LISTEN connections come back by themselves: a tap on A reaches the socket on B.
    for (const server of [a, b]) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const deadline = Date.now() + 30_000;
    let heard = false;
    while (!heard && Date.now() < deadline) {
      const mark = watcher.received.length;
      const { key, status } = await tap(a, cookies[0], productId, []);
      expect(status).toBe(200);
      heard = await watcher
        .next<InventoryUpdate>("inventory_update", (e) => e.data.idempotency_key === key, mark)
        .then(() => true)
        .catch(() => false);
    }
    expect(heard).toBe(true);
    expect(watcher.socket.connected).toBe(true);
  }, 180_000);
});
