import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate } from "../../contract/events.js";
import type { Product } from "../../contract/products.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../test/server-processes.js";
import { TestSocket } from "../test/socket-client.js";

/**
 * Two real server processes on one PostgreSQL database: a change made through one reaches the
 * screens connected to the other, though no socket of the first may hear it (an event is dropped
 * unheard only where no other process could carry it, plugins/realtime.ts).
 */

let cluster: ServerProcesses;
let servers: ServerProcess[] = [];
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_realtime");
  servers = await Promise.all([cluster.start(), cluster.start()]);
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await cluster?.close();
}, 60_000);

describe("live changes across server processes", () => {
  it("a tap through one process reaches a screen on the other, with the committed product", { timeout: 60_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const cookieB = await login(b, ADMIN.username, ADMIN.password);
    const created = await api<Product>(a, cookieA, "POST", "/api/products", {
      barcode: `RT-${Date.now()}`,
      product_name: "Cross-process card",
      vendor: "Topps",
      quantity_on_hand: 5,
    });
    expect(created.status).toBe(201);

    const token = await api<{ token: string }>(b, cookieB, "GET", "/api/auth/socket-token");
    expect(token.status).toBe(200);
    const screen = new TestSocket(b.url);
    sockets.push(screen);
    await screen.connected();
    screen.authenticate(token.body.token);
    await screen.next("authenticated");

    const heard = screen.next<InventoryUpdate>("inventory_update", (e) => e.data.product?.id === created.body.id);
    const tap = await api<Product>(a, cookieA, "PUT", `/api/products/${created.body.id}/quantity`, { quantity_change: -1 });
    expect(tap.status).toBe(200);
    const event = await heard;
    expect(event.type).toBe("quantity_changed");
    expect(event.data.product?.quantity_on_hand).toBe(4);
    expect(event.data.product?.version).toBe(tap.body.version);
  });
});
