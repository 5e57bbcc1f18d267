import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InventoryUpdate, OnlineUser } from "../contract/events.js";
import type { Product } from "../contract/products.js";
import { TestSocket } from "./modules/realtime/socket-client.test-support.js";

/**
 * Two real server processes on one PostgreSQL database: live events and presence cross
 * between them through socket.io's PostgreSQL adapter.
 */

type UserCount = { count: number; users: OnlineUser[] };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BASE_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const ADMIN = { username: "mp_admin", password: "multi-process-admin-pw" };
const START_TIMEOUT_MS = 90_000;

interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

let dbName: string;
let dbUrl: string;
let dataDir: string;
const servers: ServerProcess[] = [];
const sockets: TestSocket[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${BASE_URL} (${(err as Error).message}). This test needs a running PostgreSQL server: start one or point DATABASE_URL at one.`,
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts `npx tsx src/server/main.ts`-equivalent on a free port and waits until /api/health answers. */
async function startServer(): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      CLIENT_DIR: join(dataDir, "no-client"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d) => output.push(String(d)));
  child.stderr?.on("data", (d) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const server = { url: `http://127.0.0.1:${port}`, child, output, exited };
  servers.push(server);

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.join("")}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server on port ${port} did not start:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Signs in over HTTP and returns the session cookie. */
async function login(server: ServerProcess, username: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("blez_session="));
  if (!cookie) throw new Error("login set no session cookie");
  return cookie.split(";")[0] as string;
}

async function api<T>(server: ServerProcess, cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A socket on `server`, authenticated with a token from that server's GET /api/auth/socket-token. */
async function onlineAt(server: ServerProcess, cookie: string): Promise<TestSocket> {
  const socket = new TestSocket(server.url);
  sockets.push(socket);
  await socket.connected();
  const { status, body } = await api<{ token: string }>(server, cookie, "GET", "/api/auth/socket-token");
  expect(status).toBe(200);
  socket.authenticate(body.token);
  await socket.next("authenticated");
  return socket;
}

const countIs = (n: number) => (p: UserCount) => p.count === n;

beforeAll(async () => {
  const name = `blez_mp_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await adminQuery(`create database "${name}"`);
  dbName = name;
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  dbUrl = url.toString();
  dataDir = mkdtempSync(join(tmpdir(), "blez-mp-"));
  // Both at once, as a deployment would: migrations and the first admin must cope.
  await Promise.all([startServer(), startServer()]);
}, 2 * START_TIMEOUT_MS);

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of servers) {
    if (s.child.exitCode === null) s.child.kill("SIGKILL");
    await s.exited;
  }
  if (dbName) await adminQuery(`drop database if exists "${dbName}" with (force)`);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("two server processes on one PostgreSQL database", () => {
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
