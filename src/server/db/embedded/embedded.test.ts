import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { migratedDataDir } from "../../test/templates.js";
import { openPglite } from "../client.js";
import { processRunning } from "./data-dir-lock.js";

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "blez-embedded-"));
  dirs.push(dir);
  return dir;
}
/** A folder with a migrated, empty database (the run's template, as a first start leaves it). */
function migratedDir(): string {
  const dir = migratedDataDir("blez-embedded-");
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The id of a process that has already ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

/** The migrations of src/server/db/migrations, as drizzle's journal lists them. */
const MIGRATIONS = (
  JSON.parse(readFileSync(new URL("../migrations/meta/_journal.json", import.meta.url), "utf8")) as { entries: unknown[] }
).entries.length;

// Each test starts one or two database processes: slow on a busy machine (initdb on an empty folder, slower still).
describe("the embedded database", { timeout: 120_000 }, () => {
  it("is created in an empty folder with every migration, and keeps its data across a close and a new start", async () => {
    const dir = freshDir();
    const first = await openPglite(dir);
    expect((await first.pool.query("select count(*)::int as n from drizzle.__drizzle_migrations")).rows).toEqual([{ n: MIGRATIONS }]);
    await first.pool.query("create table kept (n integer)");
    await first.pool.query("insert into kept values (42)");
    await first.close();

    const second = await openPglite(dir);
    try {
      expect((await second.pool.query("select n from kept")).rows).toEqual([{ n: 42 }]);
    } finally {
      await second.close();
    }
  });

  it("serves a named prepared statement again after its connection was replaced", async () => {
    const database = await openPglite(migratedDir());
    try {
      const named = { name: "embedded_test_named", text: "select $1::int + 1 as n", values: [41] };
      expect((await database.pool.query(named)).rows).toEqual([{ n: 42 }]);
      // The one connection goes away (as after an error); the next one meets the same PGlite session.
      const client = await database.pool.connect();
      client.release(true);
      expect((await database.pool.query(named)).rows).toEqual([{ n: 42 }]);
    } finally {
      await database.close();
    }
  });

  it("refuses a second server on the same folder, naming the folder and the process", async () => {
    const dir = migratedDir();
    const first = await openPglite(dir);
    try {
      await expect(openPglite(dir)).rejects.toThrow(
        `The embedded database in ${resolve(dir)} is already in use by another Blez Inventory server (process ${process.pid})`,
      );
      // The first one is unharmed.
      expect((await first.pool.query("select 1 as ok")).rows).toEqual([{ ok: 1 }]);
    } finally {
      await first.close();
    }
    // Closed: the folder is free again.
    const again = await openPglite(dir);
    await again.close();
  });

  it("ends by itself, closing the database cleanly, when its server dies while it opens", async () => {
    const dir = migratedDir();
    const log = join(freshDir(), "host.log");
    const out = openSync(log, "w");
    // A stand-in server: starts the database process and dies at once, while PGlite still opens.
    const host = fileURLToPath(new URL("./host.ts", import.meta.url));
    const socket = join(freshDir(), ".s.PGSQL.5432");
    const parent = spawnSync(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").fork(${JSON.stringify(host)}, [${JSON.stringify(socket)}, "2", ${JSON.stringify(dir)}], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] }); process.stdout.write(String(c.pid)); process.exit(0);`,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", out] },
    );
    closeSync(out);
    const pid = Number(parent.stdout);
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + 90_000;
    while (processRunning(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(processRunning(pid)).toBe(false);
    // It closed on its own: no error about the IPC channel it could no longer answer on.
    expect(readFileSync(log, "utf8")).toBe("");
    const database = await openPglite(dir);
    await database.close();
  });

  it("takes over a lock left by servers that no longer run", async () => {
    const dir = migratedDir();
    const lockFile = join(dir, "blez-server.lock");
    const dead = [deadPid(), deadPid()];
    writeFileSync(lockFile, dead.join(" "));
    const database = await openPglite(dir);
    try {
      // Started on the folder, and the lock is this server's now: its own id, none of the dead ones.
      expect((await database.pool.query("select 1 as ok")).rows).toEqual([{ ok: 1 }]);
      const owners = readFileSync(lockFile, "utf8").split(/\s+/).filter(Boolean).map(Number);
      expect(owners).toContain(process.pid);
      for (const pid of dead) expect(owners).not.toContain(pid);
    } finally {
      await database.close();
    }
  });
});
