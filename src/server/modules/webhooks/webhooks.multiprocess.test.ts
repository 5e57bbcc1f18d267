import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products.js";
import type { CreatedWebhook } from "../../../contract/webhooks.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../../test/server-processes.js";
import { eventually, Receiver } from "../../test/webhook-receiver.js";
import { verifyWebhook } from "./webhook-signature.js";

/**
 * Real server processes on one PostgreSQL database: each delivery is sent by one of them, once;
 * a delivery whose process was killed mid-attempt is sent by the next one, same webhook-id.
 */

// A 5 s timeout, long enough for a loaded machine: an answer slower than the timeout is sent again
// (same webhook-id, as it should be), which the tests' count of one delivery each would take for a bug.
// The receiver runs on this computer: allowed.
const ENV = { WEBHOOK_TIMEOUT_MS: "5000", WEBHOOK_POLL_MS: "200", WEBHOOK_RETRY_DELAYS_MS: "200", WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" };
let cluster: ServerProcesses;
let servers: ServerProcess[] = [];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  cluster = await ServerProcesses.create("blez_webhooks_mp");
  servers = await Promise.all([cluster.start(ENV), cluster.start(ENV)]);
}, 180_000);

afterAll(async () => {
  await cluster?.close();
  await receiver?.close();
}, 60_000);

describe("webhooks with two server processes", () => {
  it("send each delivery once, whichever process made the change", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const cookieB = await login(b, ADMIN.username, ADMIN.password);
    const hook = await api<CreatedWebhook>(a, cookieA, "POST", "/api/webhooks", {
      url: receiver.url,
      events: ["inventory.quantity_changed"],
    });
    expect(hook.status).toBe(201);
    const products: Product[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await api<Product>(a, cookieA, "POST", "/api/products", {
        barcode: `MP-WH-${i}`,
        product_name: `Card ${i}`,
        vendor: "Topps",
        quantity_on_hand: 100,
      });
      products.push(created.body);
    }
    // Both processes poll the same outbox: slow answers keep attempts under way in both at once.
    receiver.answer = () => ({ status: 200, delayMs: 50 });
    const taps = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [server, cookie] = i % 2 === 0 ? [a, cookieA] : [b, cookieB];
        const product = products[i % 4] as Product;
        return api<Product>(server, cookie, "PUT", `/api/products/${product.id}/quantity`, { quantity_change: -1, reason: `Tap ${i}` });
      }),
    );
    expect(taps.every((t) => t.status === 200)).toBe(true);
    const got = await receiver.waitFor(() => true, 40, 20_000);
    // Nothing more arrives: every delivery went out exactly once.
    await new Promise((r) => setTimeout(r, 1_000));
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    for (const r of got) expect(verifyWebhook(hook.body.secret, r.headers, r.body)).toBe(true);
    const rows = await cluster.query<{ status: string; attempts: number }>("select status, attempts from webhook_deliveries");
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.status === "succeeded" && r.attempts === 1)).toBe(true);
    // Each product's changes arrived in commit order.
    for (const p of products) {
      const stock = got
        .filter((r) => (r.json.data.product as Product).id === p.id)
        .map((r) => (r.json.data.product as Product).quantity_on_hand);
      expect(stock).toEqual([...stock].sort((x, y) => y - x));
    }
  });

  it("send a delivery whose process was killed mid-attempt from the process started after", async () => {
    const [a] = servers as [ServerProcess, ServerProcess];
    const cookie = await login(a, ADMIN.username, ADMIN.password);
    const product = await api<Product>(a, cookie, "POST", "/api/products", {
      barcode: "MP-WH-KILL",
      product_name: "Kill Card",
      vendor: "Topps",
      quantity_on_hand: 5,
    });
    receiver.received.length = 0;
    receiver.answer = () => "hang";
    expect(
      (await api(a, cookie, "PUT", `/api/products/${product.body.id}/quantity`, { quantity_change: -1, reason: "Before the crash" }))
        .status,
    ).toBe(200);
    const [cut] = await receiver.waitFor(() => true, 1);
    // Both processes die at once (whichever was sending); the attempt never got its answer.
    for (const s of servers) s.child.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));
    receiver.answer = () => ({ status: 200 });

    const next = await cluster.start(ENV);
    // The dead attempt's lease (timeout + 5 s) runs out, then the new process sends it again.
    const again = await receiver.waitFor((r) => r.headers["webhook-id"] === cut?.headers["webhook-id"], 2, 30_000);
    expect(again[1]?.body).toBe(cut?.body);
    const row = await eventually(async () => {
      const [d] = await cluster.query<{ status: string; attempts: number }>(
        "select status, attempts from webhook_deliveries where message_id = $1",
        [cut?.headers["webhook-id"]],
      );
      return d?.status === "succeeded" ? d : undefined;
    }, 10_000);
    expect(row.attempts).toBe(2);
    expect(next.child.exitCode).toBeNull();
  }, 60_000);
});
