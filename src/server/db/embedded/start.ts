import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runningBuilt } from "../../paths.js";
import { type DataDirLock, lockDataDir } from "./data-dir-lock.js";

export interface EmbeddedDatabase {
  /** node-postgres connection settings for the socket. */
  connection: {
    host: string;
    port: number;
    user: string;
    database: string;
    max: number;
    connectionTimeoutMillis: number;
    idleTimeoutMillis: number;
  };
  /** Closes the database (flushing it to disk), ends its process, and frees the data folder. */
  stop(): Promise<void>;
}

/** node-postgres connects to `<folder>/.s.PGSQL.<port>`. */
const SOCKET_PORT = 5432;
/**
 * One connection: PGlite is a single database session, so every statement runs one at a time
 * anyway, and the socket server interleaves the protocol messages of several connections (a
 * connection's prepared statements would be another's). Requests queue in the pool instead.
 */
const POOL_MAX = 1;
const MAX_CONNECTIONS = 2;
/** A request that cannot get the connection in this time answers 503 instead of waiting forever. */
const CONNECTION_TIMEOUT_MS = 30_000;
/** The database host: built beside the server (scripts/build-server.mjs), or its source run through tsx. */
const host = runningBuilt
  ? { script: fileURLToPath(new URL("./db-host.mjs", import.meta.url)), execArgv: [] }
  : { script: fileURLToPath(new URL("./host.ts", import.meta.url)), execArgv: ["--import", "tsx"] };
/** The host opens (and on first start creates) the database; a slow disk or a busy machine takes a while. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the embedded database in its own process (data in `dataDir`, or in memory), listening
 * on a Unix socket in a private temporary folder: no TCP port, nothing another user can reach.
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = await lockDataDir(dataDir);
  }
  const socketDir = mkdtempSync(join(tmpdir(), "blez-db-"));
  const cleanUp = () => {
    rmSync(socketDir, { recursive: true, force: true });
    lock?.release();
  };
  let child: ChildProcess;
  try {
    const args = [join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), String(MAX_CONNECTIONS), ...(dataDir ? [dataDir] : [])];
    child = fork(host.script, args, {
      execArgv: host.execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    if (child.pid !== undefined) lock?.addOwner(child.pid);
    await waitForReady(child);
  } catch (err) {
    cleanUp();
    throw err;
  }

  // Never leave the database process behind when this one exits.
  const killOnExit = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.once("exit", killOnExit);
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        process.off("exit", killOnExit);
        cleanUp();
        resolve();
      };
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", done);
      if (child.connected) child.send("close");
      else child.kill("SIGTERM");
    });
    return stopping;
  };
  return {
    connection: {
      host: socketDir,
      port: SOCKET_PORT,
      user: "postgres",
      database: "postgres",
      max: POOL_MAX,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      // Keep the one connection: closing it when idle would only make the next request open it again.
      idleTimeoutMillis: 0,
    },
    stop,
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("The embedded database did not start in time"));
    }, START_TIMEOUT_MS);
    child.once("message", (message: { ready?: boolean; error?: string }) => {
      clearTimeout(timer);
      if (message.ready) resolve();
      else reject(new Error(`The embedded database did not start: ${message.error ?? "unknown error"}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The embedded database process exited during start-up (code ${code})`));
    });
  });
}
