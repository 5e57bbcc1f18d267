import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../test/server-processes.js";
import { migratedDataDir, serverArgs } from "../../test/templates.js";
import { lockDataDir, processRunning } from "./data-dir-lock.js";

const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const LOCK_FILE = "blez-server.lock";

const dirs: string[] = [];
const children: ChildProcess[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "blez-lock-"));
  dirs.push(dir);
  return dir;
}
/** A process of our own, ended (and awaited) after the test. */
function track<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}
function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await ended(child);
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error("the process did not start");
  return child.pid;
}

const lockText = (dir: string) => readFileSync(join(dir, LOCK_FILE), "utf8");

describe("the data folder's lock", () => {
  it("waits for an owner that is still exiting, then takes the folder", async () => {
    const dir = freshDir();
    const exiting = track(spawn(process.execPath, ["-e", "setTimeout(() => {}, 1500)"], { stdio: "ignore" }));
    writeFileSync(join(dir, LOCK_FILE), String(pidOf(exiting)));

    const started = Date.now();
    const lock = await lockDataDir(dir);
    const waited = Date.now() - started;
    expect(processRunning(pidOf(exiting))).toBe(false);
    expect(lockText(dir)).toBe(String(process.pid));
    expect(waited).toBeGreaterThan(1_000); // it did wait: the owner lives 1.5 s at least
    expect(waited).toBeLessThan(10_000);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it.skipIf(!existsSync("/proc/self/stat"))("counts an ended process its parent has not reaped (a zombie) as gone at once", async () => {
    const dir = freshDir();
    // The shell starts `sleep 0.1` in the background, then becomes `sleep 30`, which never reaps it.
    const parent = track(spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] }));
    const zombie = await new Promise<number>((done, fail) => {
      parent.stdout?.once("data", (d) => done(Number(String(d).trim())));
      parent.once("error", fail);
    });
    const state = () => {
      const stat = readFileSync(`/proc/${zombie}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 1).trim()[0];
    };
    await until("the background sleep to end", () => state() === "Z");
    expect(processRunning(zombie)).toBe(false);
    writeFileSync(join(dir, LOCK_FILE), String(zombie));

    const started = Date.now();
    const lock = await lockDataDir(dir, { waitMs: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(state()).toBe("Z"); // still a zombie: it was not waited for
    expect(lockText(dir)).toBe(String(process.pid));
    lock.release();
  });

  it("refuses a folder a running server holds, with the clear message, after the wait", async () => {
    const dir = freshDir();
    const server = track(spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }));
    const held = `${pidOf(server)} ${pidOf(server) + 1}`;
    writeFileSync(join(dir, LOCK_FILE), held);

    const started = Date.now();
    await expect(lockDataDir(dir, { waitMs: 600, pollMs: 100 })).rejects.toThrow(
      `The embedded database in ${resolve(dir)} is already in use by another Blez Inventory server (process ${pidOf(server)}). ` +
        "Stop that server first, or start this one with another DATA_DIR.",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(lockText(dir)).toBe(held); // left to its owner
  });

  it("takes over a lock with this process's id that this process does not hold (left from before a restart)", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), String(process.pid));
    const lock = await lockDataDir(dir, { waitMs: 0 });
    lock.release();
  });

  // Two real server starts on the embedded database: slow on a busy machine.
  it("starts again at once after the server was killed (kill -9) on its data folder", { timeout: 120_000 }, async () => {
    const dataDir = migratedDataDir("blez-lock-");
    dirs.push(dataDir);
    const startServer = async () => {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_USERNAME: "lock_admin",
        ADMIN_PASSWORD: "lock-test-admin-pw",
        LOG_LEVEL: "warn",
        CLIENT_DIR: join(dataDir, "no-client"),
      };
      delete env.DATABASE_URL; // the embedded database
      const child = track(spawn(process.execPath, serverArgs(), { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }));
      const output: string[] = [];
      child.stdout?.on("data", (d) => output.push(String(d)));
      child.stderr?.on("data", (d) => output.push(String(d)));
      const url = `http://127.0.0.1:${port}/api/health`;
      const started = Date.now();
      await until(
        "the server to answer /api/health",
        async () => {
          if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.join("")}`);
          try {
            return (await fetch(url)).status === 200;
          } catch {
            return false; // not listening yet
          }
        },
        90_000,
      );
      return { child, startMs: Date.now() - started };
    };

    const first = await startServer();
    const [serverPid, databasePid] = lockText(dataDir).split(" ").map(Number) as [number, number];
    expect(serverPid).toBe(first.child.pid);
    expect(processRunning(databasePid)).toBe(true);

    // The database is at work when the server is killed (a statement of 6 s on the database process's
    // own socket, an argument of that process): it notices its parent's end only after that, then closes and exits.
    const socketPath = readFileSync(`/proc/${databasePid}/cmdline`, "utf8")
      .split("\0")
      .find((arg) => arg.endsWith("/.s.PGSQL.5432"));
    if (!socketPath) throw new Error("no socket among the database process's arguments");
    const client = new pg.Client({ host: dirname(socketPath), port: 5432, user: "postgres", database: "postgres" });
    client.on("error", () => {}); // the database process goes away under it
    await client.connect();
    const working = client.query("select pg_sleep(6)").catch(() => {});
    await new Promise((r) => setTimeout(r, 300));

    first.child.kill("SIGKILL");
    await ended(first.child);
    const restarted = Date.now();
    let databaseEndedAfterMs: number | undefined;
    void until("the old database process to end", () => !processRunning(databasePid), 60_000).then(
      () => (databaseEndedAfterMs = Date.now() - restarted),
      () => {},
    );
    const second = await startServer();
    await working;
    await client.end().catch(() => {});
    expect(processRunning(databasePid)).toBe(false);
    expect(lockText(dataDir).split(" ")[0]).toBe(String(second.child.pid));
    console.info(
      `first start ${first.startMs} ms; after kill -9: the old database process ended after ${databaseEndedAfterMs} ms, the new server answered after ${second.startMs} ms`,
    );

    // A clean stop frees the folder.
    second.child.kill("SIGTERM");
    await ended(second.child);
    expect(second.child.exitCode).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});
