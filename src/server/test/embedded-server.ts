import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Database, openPglite } from "../db/client.js";
import { DEFAULT_LOCK_WAIT_MS, processRunning } from "../db/embedded/data-dir-lock.js";
import { ADMIN, freePort, type ServerProcess } from "./server-processes.js";
import { migratedDataDir, ROOT, serverArgs } from "./templates.js";

/**
 * Real server processes (`src/server/main.ts`, built for the run: templates.ts) on the embedded
 * database, in a data folder of their own: for tests that kill the server (kill -9) and start it
 * again on the same folder.
 * Sign in with ADMIN (server-processes.ts), as on the PostgreSQL processes.
 */

const LOCK_FILE = "blez-server.lock";
/** The embedded database opens (on the first start, creates) its folder: slow on a busy machine. */
const START_TIMEOUT_MS = 90_000;

export interface EmbeddedServer extends ServerProcess {
  dataDir: string;
  /** From spawn to the first 200 of GET /api/health. */
  startMs: number;
}

/** Data folders and server processes of a test file, all ended (and removed) by `close`. */
export class EmbeddedServers {
  private readonly dirs: string[] = [];
  private readonly servers: EmbeddedServer[] = [];

  /** A fresh, empty data folder (a server's first start there creates the database). */
  freshDir(prefix = "blez-embedded-"): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A data folder holding a migrated database with no rows yet, as a server's first start leaves it (templates.ts). */
  migratedDir(prefix = "blez-embedded-"): string {
    const dir = migratedDataDir(prefix);
    this.dirs.push(dir);
    return dir;
  }

  /** Starts a server on `dataDir` (the embedded database) and waits until GET /api/health answers 200. */
  async start(dataDir: string, env: Record<string, string> = {}): Promise<EmbeddedServer> {
    const port = await freePort();
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      CLIENT_DIR: join(dataDir, "no-client"),
      ...env,
    };
    delete childEnv.DATABASE_URL; // the embedded database
    const started = Date.now();
    const child = spawn(process.execPath, serverArgs(), {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    child.stdout?.on("data", (d) => output.push(String(d)));
    child.stderr?.on("data", (d) => output.push(String(d)));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const server: EmbeddedServer = { url: `http://127.0.0.1:${port}`, child, output, exited, dataDir, startMs: 0 };
    this.servers.push(server);

    const deadline = started + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}:\n${output.join("")}`);
      }
      try {
        if ((await fetch(`${server.url}/api/health`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the server on ${dataDir} did not start:\n${output.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    server.startMs = Date.now() - started;
    return server;
  }

  /** Ends every server still running (kill -9), waits for their database processes to close, and removes the data folders. */
  async close(): Promise<void> {
    for (const s of this.servers.splice(0)) await stop(s, "SIGKILL");
    for (const dir of this.dirs.splice(0)) {
      const owners = existsSync(join(dir, LOCK_FILE))
        ? readFileSync(join(dir, LOCK_FILE), "utf8")
            .trim()
            .split(" ")
            .map(Number)
            .filter((pid) => pid > 0)
        : [];
      for (let waited = 0; owners.some((pid) => processRunning(pid)) && waited < DEFAULT_LOCK_WAIT_MS; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Sends `signal` (kill -9: SIGKILL) to the server and waits until it has exited; answers its exit code. */
export async function stop(server: ServerProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/**
 * The folder of the Unix socket the running embedded database of `dataDir` listens on (an
 * argument of its process, whose id is the second one in the folder's lock). A client there is a
 * second connection to the server's one database session (Linux: read from /proc).
 */
export function embeddedDatabaseSocketDir(dataDir: string): string {
  const pids = readFileSync(join(dataDir, LOCK_FILE), "utf8").trim().split(" ");
  const databasePid = pids[1];
  if (!databasePid) throw new Error(`no database process in the lock of ${dataDir}`);
  const socket = readFileSync(`/proc/${databasePid}/cmdline`, "utf8")
    .split("\0")
    .find((arg) => arg.endsWith("/.s.PGSQL.5432"));
  if (!socket) throw new Error("no socket among the database process's arguments");
  return dirname(socket);
}

/** Opens the data folder of a stopped server (its lock, its database process), to read what the server left. */
export function openDataDir(dataDir: string): Promise<Database> {
  return openPglite(dataDir);
}
