import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { TestSocket } from "./socket-client.js";
import { ROOT, serverArgs } from "./templates.js";

/**
 * Real server processes (`src/server/main.ts`, built for the run: templates.ts) on a fresh PostgreSQL database, for tests of
 * what only separate processes show: events and sessions crossing between them, shutdown,
 * surviving database faults. Always on PostgreSQL (DATABASE_URL, or the local server).
 */

export const POSTGRES_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
export const ADMIN = { username: "mp_admin", password: "multi-process-admin-pw" };
const START_TIMEOUT_MS = 90_000;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** Runs `sql` on the PostgreSQL server (as the DATABASE_URL user, in its database). */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_URL} (${(err as Error).message}). This test needs a running PostgreSQL server: start one or point DATABASE_URL at one.`,
    );
  }
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export async function freePort(): Promise<number> {
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

/** A fresh database, the server processes started on it, and the sockets opened to them. */
export class ServerProcesses {
  readonly servers: ServerProcess[] = [];
  readonly sockets: TestSocket[] = [];

  private constructor(
    readonly dbName: string,
    readonly dbUrl: string,
    private readonly dataDir: string,
  ) {}

  static async create(prefix: string): Promise<ServerProcesses> {
    const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
    await adminQuery(`create database "${name}"`);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return new ServerProcesses(name, url.toString(), mkdtempSync(join(tmpdir(), `${prefix}-`)));
  }

  /** Starts a server process on a free port and waits until GET /api/health answers 200. */
  async start(env: Record<string, string> = {}): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, serverArgs(), {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: this.dbUrl,
        DATA_DIR: this.dataDir,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "warn",
        CLIENT_DIR: join(this.dataDir, "no-client"),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    child.stdout?.on("data", (d) => output.push(String(d)));
    child.stderr?.on("data", (d) => output.push(String(d)));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const server = { url: `http://127.0.0.1:${port}`, child, output, exited };
    this.servers.push(server);

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

  /** A socket on `server`, authenticated with a token from that server's GET /api/auth/socket-token. */
  async onlineAt(server: ServerProcess, cookie: string): Promise<TestSocket> {
    const socket = new TestSocket(server.url);
    this.sockets.push(socket);
    await socket.connected();
    const { status, body } = await api<{ token: string }>(server, cookie, "GET", "/api/auth/socket-token");
    if (status !== 200) throw new Error(`socket token: ${status}`);
    socket.authenticate(body.token);
    await socket.next("authenticated");
    return socket;
  }

  /** Ends every connection the server processes hold to their database (as a database restart does). */
  async terminateConnections(): Promise<number> {
    const rows = await adminQuery<{ ok: boolean }>(
      "select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [this.dbName],
    );
    return rows.filter((r) => r.ok).length;
  }

  /** Runs `sql` on the servers' database. */
  async query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.dbUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      return (await client.query<T>(sql, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** Refuses (or again accepts) new connections to the database: with terminateConnections, an outage. */
  async acceptConnections(allow: boolean): Promise<void> {
    await adminQuery(`alter database "${this.dbName}" with allow_connections ${allow}`);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.close();
    for (const s of this.servers) {
      if (s.child.exitCode === null) s.child.kill("SIGKILL");
      await s.exited;
    }
    await adminQuery(`drop database if exists "${this.dbName}" with (force)`);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Signs in over HTTP and returns the session cookie. */
export async function login(server: ServerProcess, username: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login as ${username}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("blez_session="));
  if (!cookie) throw new Error("login set no session cookie");
  return cookie.split(";")[0] as string;
}

export async function api<T>(
  server: ServerProcess,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
