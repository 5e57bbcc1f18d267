import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { serverEnv } from "../../scripts/server-env.mjs";

/**
 * Real server processes (`node --import tsx src/server/main.ts`), fresh PostgreSQL databases and
 * temporary folders, all registered for clean-up so that the bench leaves nothing behind, also
 * when it fails or is interrupted.
 */

/** Where the server under test is run from (BENCH_SERVER_ROOT: e.g. an export of an older commit). */
export const ROOT = process.env.BENCH_SERVER_ROOT || fileURLToPath(new URL("../..", import.meta.url));
export const PG_BASE_URL = process.env.BENCH_PG_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
export const ADMIN = { username: "bench-admin", password: "bench-admin-password" };
const START_TIMEOUT_MS = 300_000;

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

const running = new Set<ServerProcess>();
const databases = new Set<string>();
const folders = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  folders.delete(dir);
}

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

/** Runs one statement on the maintenance database; a clear error when PostgreSQL is not there. */
export async function adminQuery(sql: string, url = PG_BASE_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(err as Error).message}). The busy-shop bench needs a running PostgreSQL: start one, point BENCH_PG_URL at one, or run BENCH_DB=pglite.`,
    );
  }
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database beside PG_BASE_URL's; dropped by cleanUp(). Answers its URL. */
export async function createDatabase(label: string): Promise<{ name: string; url: string }> {
  const name = `blez_bench_${label}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`create database "${name}"`);
  databases.add(name);
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`drop database if exists "${name}" with (force)`);
  databases.delete(name);
}

/**
 * Starts a server process on a free port and waits until GET /api/health answers 200. `built`:
 * the server as `npm start` runs it (dist/server/main.mjs, built by the caller), not its sources
 * through tsx (whose compiler and caches would be counted in its memory).
 */
export async function startServer(
  name: string,
  db: { dataDir: string; databaseUrl?: string; clientDir?: string; built?: boolean },
): Promise<ServerProcess> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS: extra node flags for the servers (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p --trace-gc").
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const entry = db.built ? ["dist/server/main.mjs"] : ["--import", "tsx", "src/server/main.ts"];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: ROOT,
    // Its own process group, so that anything it starts (an embedded-database child) ends with it.
    detached: true,
    // As `npm start` starts it (scripts/server-env.mjs).
    env: {
      ...serverEnv(process.env),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl ?? "",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      // No client unless a bench serves a build of its own (bench/inventory-browser/).
      CLIENT_DIR: db.clientDir ?? join(db.dataDir, "no-client"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d) => output.push(String(d)));
  child.stderr?.on("data", (d) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const server: ServerProcess = { name, url: `http://127.0.0.1:${port}`, child, output, exited };
  running.add(server);

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output.join("")}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} on port ${port} did not start:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function killGroup(server: ServerProcess, signal: NodeJS.Signals): void {
  const pid = server.child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM (graceful: PGlite flushes), SIGKILL after 15 s. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    killGroup(server, "SIGTERM");
    const timer = setTimeout(() => killGroup(server, "SIGKILL"), 15_000);
    await server.exited;
    clearTimeout(timer);
  }
  // The group may still hold a child of the server.
  killGroup(server, "SIGKILL");
  running.delete(server);
  // BENCH_SERVER_LOGS=<folder>: keep each server's output there.
  const logs = process.env.BENCH_SERVER_LOGS;
  if (logs) writeFileSync(join(logs, `${server.name}-${server.child.pid}.log`), server.output.join(""));
}

/** Stops every server, drops every database, removes every folder this bench made. */
export async function cleanUp(): Promise<void> {
  await Promise.all([...running].map((s) => stopServer(s)));
  for (const name of [...databases]) {
    await dropDatabase(name).catch((err) => console.error(`could not drop database ${name}: ${(err as Error).message}`));
  }
  for (const dir of [...folders]) removeDir(dir);
}

/** Last resort on exit: no server process outlives the bench. */
process.on("exit", () => {
  for (const s of running) killGroup(s, "SIGKILL");
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping servers and cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}
