import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate, OnlineUser } from "../contract/events.js";
import type { Product } from "../contract/products.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "./test/server-processes.js";
import { TestSocket } from "./test/socket-client.js";

/**
 * Two real server processes on one PostgreSQL database: live events, presence and ended
 * sessions cross between them through socket.io's PostgreSQL adapter.
 */

type UserCount = { count: number; users: OnlineUser[] };

let cluster: ServerProcesses;
let servers: ServerProcess[] = [];
const onlineAt = (server: ServerProcess, cookie: string) => cluster.onlineAt(server, cookie);
const countIs = (n: number) => (p: UserCount) => p.count === n;

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_mp");
  // Both at once, as a deployment would: migrations and the first admin must cope.
  servers = await Promise.all([cluster.start(), cluster.start()]);
}, 180_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

describe("two server processes on one PostgreSQL database", () => {
  // First, while no socket is open on A: an event nobody on A may hear still goes to B's screens.
  it("a tap through a process with no screen open reaches a screen on the other, with the committed product", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const created = await api<Product>(a, cookieA, "POST", "/api/products", {
      barcode: `MP-${randomBytes(3).toString("hex")}`,
      product_name: "Unheard Here Card",
      vendor: "Topps",
      quantity_on_hand: 5,
    });
    expect(created.status).toBe(201);
    const onB = await onlineAt(b, await login(b, ADMIN.username, ADMIN.password));
    const tap = await api<Product>(a, cookieA, "PUT", `/api/products/${created.body.id}/quantity`, { quantity_change: -1 });
    expect(tap.status).toBe(200);
    const update = await onB.next<InventoryUpdate>("inventory_update", (e) => e.data.id === created.body.id);
    expect(update).toMatchObject({ type: "quantity_changed", data: { quantity_on_hand: 4, product: { version: tap.body.version } } });
    onB.close();
  });

  it("share presence and live inventory events, and one leaving is noticed by the other", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const adminCookie = await login(a, ADMIN.username, ADMIN.password);

    // A second user, created through process B's API.
    const streamer = { username: `mp_streamer_${randomBytes(3).toString("hex")}`, password: "streamer-password" };
    const created = await api(b, await login(b, ADMIN.username, ADMIN.password), "POST", "/api/auth/users", {
      ...streamer,
      role: "streamer",
    });
    expect(created.status).toBe(201);
    const streamerCookie = await login(b, streamer.username, streamer.password);

    // The admin is online through A, the streamer through B.
    const onA = await onlineAt(a, adminCookie);
    const onB = await onlineAt(b, streamerCookie);
    const both = [
      { username: ADMIN.username, role: "super_admin" },
      { username: streamer.username, role: "streamer" },
    ].sort((x, y) => x.username.localeCompare(y.username));
    for (const socket of [onA, onB]) {
      expect(await socket.next<UserCount>("user_count", countIs(2))).toEqual({ count: 2, users: both });
    }

    // A stock change through A's API reaches the socket on B (and the one on A).
    const product = await api<Product>(a, adminCookie, "POST", "/api/products", {
      barcode: `MP-${randomBytes(3).toString("hex")}`,
      product_name: "Cross Process Card",
      vendor: "Topps",
      release_year: 2024,
      quantity_on_hand: 5,
    });
    expect(product.status).toBe(201);
    const changed = await api<Product>(a, adminCookie, "PUT", `/api/products/${product.body.id}/quantity`, {
      quantity_change: -1,
      reason: "sold",
    });
    expect(changed.status).toBe(200);
    for (const socket of [onB, onA]) {
      const update = await socket.next<InventoryUpdate>("inventory_update", (e) => e.type === "quantity_changed");
      expect(update).toMatchObject({
        type: "quantity_changed",
        data: {
          id: product.body.id,
          product_name: "Cross Process Card",
          updated_by: ADMIN.username,
          quantity_change: -1,
          quantity_on_hand: 4,
        },
      });
    }

    // Disabling the streamer through A drops their socket on B.
    const streamerId = (created.body as { id: number }).id;
    const disabled = await api(a, adminCookie, "PUT", `/api/auth/users/${streamerId}/status`, { is_active: false });
    expect(disabled.status).toBe(200);
    expect(await onB.next("auth_error")).toEqual({ message: "Your account has been disabled", reason: "account_disabled" });
    expect(await onB.next("disconnect")).toBe("io server disconnect");
    const afterTwo = onA.received.findIndex((r) => r.event === "user_count" && (r.payload as UserCount).count === 2);
    expect(await onA.next<UserCount>("user_count", countIs(1), afterTwo)).toEqual({
      count: 1,
      users: [{ username: ADMIN.username, role: "super_admin" }],
    });
  });

  it("signing out through one process closes the session's socket on the other, which refuses the cookie at once", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookie = await login(a, ADMIN.username, ADMIN.password);
    const other = await login(a, ADMIN.username, ADMIN.password);
    // Both processes have validated the session (and keep it in their caches).
    expect((await api(b, cookie, "GET", "/api/auth/me")).status).toBe(200);
    expect((await api(a, cookie, "GET", "/api/auth/me")).status).toBe(200);
    const onB = await onlineAt(b, cookie);
    const otherOnB = await onlineAt(b, other);
    const staleToken = (await api<{ token: string }>(a, cookie, "GET", "/api/auth/socket-token")).body.token;

    expect((await api(a, cookie, "POST", "/api/auth/logout")).status).toBe(200);
    expect(await onB.next("disconnect")).toBe("io server disconnect");
    expect((await api(b, cookie, "GET", "/api/auth/me")).status).toBe(401);
    // A token fetched before the sign-out is refused by the other process too.
    const late = new TestSocket(b.url);
    cluster.sockets.push(late);
    await late.connected();
    late.authenticate(staleToken);
    expect(await late.next("auth_error")).toMatchObject({ reason: "invalid_token" });
    // The same user's other session is untouched.
    expect(otherOnB.socket.connected).toBe(true);
    expect((await api(b, other, "GET", "/api/auth/me")).status).toBe(200);
  });

  it("a process stopped with SIGTERM exits promptly with sockets open, and the other counts its users out", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const adminCookieA = await login(a, ADMIN.username, ADMIN.password);
    const other = { username: `mp_inv_${randomBytes(3).toString("hex")}`, password: "inventory-password" };
    expect((await api(a, adminCookieA, "POST", "/api/auth/users", { ...other, role: "inventory" })).status).toBe(201);

    const onA = await onlineAt(a, adminCookieA);
    const onB = await onlineAt(b, await login(b, other.username, other.password));
    await onA.next<UserCount>("user_count", countIs(2));
    await onB.next<UserCount>("user_count", countIs(2));

    const mark = onA.received.length;
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    expect(await onB.next("disconnect")).toBeTruthy();
    expect(await onA.next<UserCount>("user_count", countIs(1), mark)).toEqual({
      count: 1,
      users: [{ username: ADMIN.username, role: "super_admin" }],
    });
  });
});
