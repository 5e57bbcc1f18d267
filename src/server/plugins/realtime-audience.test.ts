import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate, LowStockEvent, OrderUpdate, ShowUpdate } from "../../contract/events.js";
import { ROLES, type Role } from "../../contract/permissions.js";
import type { Product } from "../../contract/products.js";
import type { StockTakeUpdate } from "../../contract/stock-takes.js";
import { signedIn } from "../test/factories.js";
import { caller, newBarcode } from "../test/product-calls.js";
import { TestSocket } from "../test/socket-client.js";
import { createTestApp, type TestApp } from "../test/test-app.js";

/**
 * Every live event goes only to the sockets of users who may read the same data through the API
 * (plugins/realtime.ts, modules/realtime/audience.ts): one socket per role, real changes made
 * through the API, and who heard each event compared with who gets 200 from its GET route.
 */

type Api = ReturnType<typeof caller>;
let t: TestApp;
let url: string;
const api = {} as Record<Role, Api>;
const socket = {} as Record<Role, TestSocket>;
let stranger: TestSocket;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  for (const role of ROLES) {
    const { cookie } = await signedIn(t.app, role);
    api[role] = caller(t.app, cookie);
    const token = (await api[role].get("/api/auth/socket-token")).json<{ token: string }>().token;
    socket[role] = await new TestSocket(url).connected();
    socket[role].authenticate(token);
    await socket[role].next("authenticated");
  }
  // Connected, never authenticated (dropped after 10 s: longer than these tests' waits).
  stranger = await new TestSocket(url).connected();
});
afterAll(async () => {
  for (const s of [...Object.values(socket), stranger]) s?.close();
  await t?.close();
});

/**
 * Runs `change`, then makes a product (an `inventory_update` every role hears, after the change's
 * events on every socket), and answers the roles whose socket got `event` matching `match` meanwhile.
 */
async function heardBy<T>(event: string, match: (payload: T) => boolean, change: () => Promise<void>): Promise<Role[]> {
  const from = Object.fromEntries(ROLES.map((role) => [role, socket[role].received.length])) as Record<Role, number>;
  await change();
  const marker = await api.manager.create({ barcode: newBarcode("MARK") });
  for (const role of ROLES) {
    await socket[role].next<InventoryUpdate>("inventory_update", (e) => e.data.id === marker.id, from[role]);
  }
  return ROLES.filter((role) => socket[role].received.slice(from[role]).some((r) => r.event === event && match(r.payload as T)));
}

/** The roles whose call of a GET route answers 200 (403 for the others). */
async function readersOf(path: string): Promise<Role[]> {
  const readers: Role[] = [];
  for (const role of ROLES) {
    const res = await api[role].get(path);
    expect([200, 403], `${role} GET ${path}: ${res.body}`).toContain(res.statusCode);
    if (res.statusCode === 200) readers.push(role);
  }
  return readers;
}

describe("live events reach only those who may read them", () => {
  it("order_update: managers and super administrators, who may list orders; never a streamer or an inventory user", async () => {
    const product = await api.manager.create({ quantity_on_hand: 5, price: 1200 });
    const externalId = newBarcode("SECRET-EXT");
    let order: OrderUpdate["order"] | undefined;
    const placedBy = await heardBy<OrderUpdate>(
      "order_update",
      (e) => e.type === "order_created" && e.order.external_id === externalId,
      async () => {
        const res = await api.manager.post("/api/orders", {
          channel: "ebay",
          external_id: externalId,
          lines: [{ product_id: product.id, quantity: 2, unit_price: 4999 }],
          note: "Ship to 12 Private Lane",
        });
        expect(res.statusCode, res.body).toBe(201);
        order = res.json<{ order: OrderUpdate["order"] }>().order;
      },
    );
    expect(placedBy).toEqual(["super_admin", "manager"]);
    const cancelledBy = await heardBy<OrderUpdate>(
      "order_update",
      (e) => e.type === "order_cancelled" && e.order.id === order?.id,
      async () => {
        expect((await api.manager.post(`/api/orders/${order?.id}/cancel`, {})).statusCode).toBe(200);
      },
    );
    expect(cancelledBy).toEqual(["super_admin", "manager"]);
    expect(placedBy).toEqual(await readersOf("/api/orders"));

    // The order's lines are stock changes every screen hears, without the order's details.
    for (const role of ["inventory", "streamer"] as const) {
      const heard = socket[role].received;
      expect(heard.some((r) => r.event === "inventory_update" && (r.payload as InventoryUpdate).data.id === product.id)).toBe(true);
      const text = JSON.stringify(heard);
      for (const secret of [externalId, "12 Private Lane", "4999"]) expect(text, role).not.toContain(secret);
    }
  });

  it("show_update: everyone who may run and list shows (every role)", async () => {
    const streamer = api.streamer;
    let showId = 0;
    const startedBy = await heardBy<ShowUpdate>(
      "show_update",
      (e) => e.type === "show_started" && e.show.id === showId,
      async () => {
        const res = await streamer.post("/api/shows", { name: "Sunday break" });
        expect(res.statusCode, res.body).toBe(201);
        showId = res.json<{ show: { id: number } }>().show.id;
      },
    );
    expect(startedBy).toEqual([...ROLES]);
    const endedBy = await heardBy<ShowUpdate>(
      "show_update",
      (e) => e.type === "show_ended" && e.show.id === showId,
      async () => {
        expect((await streamer.post(`/api/shows/${showId}/end`, {})).statusCode).toBe(200);
      },
    );
    expect(endedBy).toEqual([...ROLES]);
    expect(startedBy).toEqual(await readersOf("/api/shows"));
  });

  it("inventory_update: every signed-in user, who may list the products", async () => {
    let product: Product | undefined;
    const heard = await heardBy<InventoryUpdate>(
      "inventory_update",
      (e) => e.type === "quantity_changed" && e.data.id === product?.id,
      async () => {
        product = await api.manager.create({ quantity_on_hand: 3 });
        expect((await api.streamer.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold" })).statusCode).toBe(
          200,
        );
      },
    );
    expect(heard).toEqual([...ROLES]);
    expect(heard).toEqual(await readersOf("/api/products"));
  });

  it("low_stock: managers and super administrators, who may read the reorder report (inventory users may read it too, but get no toast)", async () => {
    const product = await api.manager.create({ quantity_on_hand: 3, reorder_point: 2 });
    const heard = await heardBy<LowStockEvent>(
      "low_stock",
      (e) => e.product.id === product.id,
      async () => {
        expect((await api.streamer.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Sold" })).statusCode).toBe(
          200,
        );
      },
    );
    expect(heard).toEqual(["super_admin", "manager"]);
    const readers = await readersOf("/api/reports/reorder");
    expect(readers).toEqual(["super_admin", "manager", "inventory"]);
    for (const role of heard) expect(readers).toContain(role);
  });

  it("stock_take_update: those who may count (inventory users, managers, super administrators); never a streamer", async () => {
    const product = await api.manager.create({ quantity_on_hand: 2 });
    let sessionId = 0;
    const startedBy = await heardBy<StockTakeUpdate>(
      "stock_take_update",
      (e) => e.type === "stock_take_started" && e.stock_take.id === sessionId,
      async () => {
        const res = await api.inventory.post("/api/stock-takes", { scope: { whole_shop: true } });
        expect(res.statusCode, res.body).toBe(201);
        sessionId = res.json<{ stock_take: { id: number } }>().stock_take.id;
      },
    );
    expect(startedBy).toEqual(["super_admin", "manager", "inventory"]);
    const scannedBy = await heardBy<StockTakeUpdate>(
      "stock_take_update",
      (e) => e.type === "stock_take_scanned" && e.stock_take.id === sessionId && e.scans?.[0]?.product_id === product.id,
      async () => {
        const res = await api.manager.post(`/api/stock-takes/${sessionId}/scans`, {
          scans: [{ client_scan_id: "a1", barcode: product.barcode }],
        });
        expect(res.statusCode, res.body).toBe(200);
      },
    );
    expect(scannedBy).toEqual(startedBy);
    expect(startedBy).toEqual(await readersOf(`/api/stock-takes/${sessionId}`));
  });

  it("a socket that never authenticated hears none of them", () => {
    expect(stranger.names.filter((name) => name !== "connect" && name !== "upgrade")).toEqual([]);
  });
});
