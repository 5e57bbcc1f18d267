import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ImportSummary } from "../../../contract/imports.js";
import { EmbeddedServers, embeddedDatabaseSocketDir, openDataDir, stop } from "../../test/embedded-server.js";
import {
  commitImport,
  expectNoImportFailures,
  expectResult,
  expectTapsExact,
  expectWrittenOnce,
  importInOneCall,
  jobOf,
  type MixedImport,
  mixedImport,
  type Query,
  settled,
  sleep,
  stageImport,
  tapsDuringImport,
  uniquePrefix,
  until,
} from "../../test/import-durable.js";
import { ADMIN, api, login, type ServerProcess } from "../../test/server-processes.js";

/**
 * Imports as durable jobs on the embedded database, with the real server (src/server/main.ts) on
 * a data folder: killed (kill -9) while it writes an import, between two batches or in the middle
 * of one, and started again at once on the same folder. The import ends done, every row written
 * exactly once. Where the kill lands is made certain through a second connection to the server's
 * one database session: a transaction held there stops every statement of the server's.
 */

/** Small batches: an import of 3,000 rows takes about 60 of them. */
const ENV = { IMPORT_BATCH_ROWS: "50" };
/**
 * A start after kill -9 waits for the old database process to close (up to 15 s, then it would
 * refuse the folder as "already in use") and opens the folder: a few seconds, more on a busy machine.
 */
const RESTART_MAX_MS = 45_000;

let servers: EmbeddedServers;
beforeEach(() => {
  servers = new EmbeddedServers();
});
afterEach(async () => {
  await servers.close();
}, 60_000);

/**
 * A second connection to the embedded database the server on `dataDir` runs (its process's
 * socket). It is the same database session: while it holds a transaction, every statement of the
 * server waits, and a statement sent while a transaction of the server's is open waits for it to
 * end. Simple queries only (one protocol message, never split by another connection's).
 */
async function secondConnection(dataDir: string): Promise<pg.Client> {
  const client = new pg.Client({ host: embeddedDatabaseSocketDir(dataDir), port: 5432, user: "postgres", database: "postgres" });
  client.on("error", () => {}); // the database process goes away under it
  await client.connect();
  return client;
}

const cursorOf = async (client: pg.Client, id: string) =>
  Number((await client.query<{ processed: number }>(`select processed from imports where id = '${id}'`)).rows[0]?.processed);

/**
 * A server on a new data folder (its database migrated, no rows), the existing products of a mixed file, and the file staged
 * (not committed). With `pauseMs`, the server is then stopped (cleanly) and started again with
 * that pause in each batch (the setup import is not slowed by it); the staged parts stay.
 */
async function staged(pauseMs: number) {
  const dataDir = servers.migratedDir("blez-durable-");
  let server = await servers.start(dataDir, ENV);
  const firstStartMs = server.startMs;
  const cookie = await login(server, ADMIN.username, ADMIN.password);
  const prefix = uniquePrefix("DUR");
  const file = mixedImport(prefix);
  expect(await importInOneCall(server, cookie, file.setup)).toMatchObject({ created: file.setup.length, updated: 0, errors: [] });
  const id = await stageImport([server], cookie, file.rows, 800);
  if (pauseMs > 0) {
    expect(await stop(server, "SIGTERM")).toBe(0);
    server = await servers.start(dataDir, { ...ENV, IMPORT_BATCH_PAUSE_MS: String(pauseMs) });
    expect(await jobOf(server, cookie, id)).toEqual({ id, status: "staging", received: file.rows.length });
  }
  return { dataDir, server, firstStartMs, cookie, prefix, file, id };
}

/** Waits until the import has written some of its rows, not all: answers its cursor. */
async function midway(server: ServerProcess, cookie: string, id: string, rows: number, atLeast: number): Promise<number> {
  const job = await until(
    `import ${id} to pass row ${atLeast}`,
    async () => {
      const j = await jobOf(server, cookie, id);
      return (j.processed ?? 0) >= atLeast || j.status !== "committing" ? j : undefined;
    },
    60_000,
    50,
  );
  expect(job.status).toBe("committing");
  expect(job.processed).toBeGreaterThan(0);
  expect(job.processed).toBeLessThan(rows);
  return job.processed ?? 0;
}

/** The server started again on the same folder: at once, without "already in use". */
async function restarted(dataDir: string, killedAt: number) {
  const second = await servers.start(dataDir, ENV);
  const output = second.output.join("");
  expect(output).not.toMatch(/already in use/);
  expect(second.startMs).toBeLessThan(RESTART_MAX_MS);
  return { second, sinceKillMs: Date.now() - killedAt };
}

/** Ends the server cleanly and checks what it left in the data folder. */
async function expectDataDir(server: ServerProcess, dataDir: string, prefix: string, file: MixedImport, id: string) {
  expect(await stop(server, "SIGTERM")).toBe(0);
  expectNoImportFailures(server);
  const database = await openDataDir(dataDir);
  try {
    const query: Query = async (sql, values) => (await database.pool.query(sql, values)).rows;
    await expectWrittenOnce(query, prefix, file, id);
  } finally {
    await database.close();
  }
}

describe("durable imports on the embedded database: kill -9 of the server and a start at once", () => {
  it("killed between two batches: the next start resumes at the cursor and the import ends done, every row once", {
    timeout: 150_000,
  }, async () => {
    // Without a pause the server starts its next batch as soon as one commits; this test makes the gap itself.
    const { dataDir, server: first, firstStartMs, cookie, prefix, file, id } = await staged(0);
    const session = await secondConnection(dataDir);
    await commitImport(first, cookie, id);
    await midway(first, cookie, id, file.rows.length, 300);

    // Between two batches: this transaction begins once the batch in flight has committed, and
    // the server's next batch waits for it. The server is killed while it waits.
    await session.query("begin");
    const cursor = await cursorOf(session, id);
    expect(cursor).toBeGreaterThan(0);
    expect(cursor).toBeLessThan(file.rows.length);
    first.child.kill("SIGKILL");
    await first.exited;
    const killedAt = Date.now();
    await session.end().catch(() => {});

    const { second, sinceKillMs } = await restarted(dataDir, killedAt);
    const job = await settled(second, cookie, id, 60_000);
    expectResult(job, file);
    const listed = await api<ImportSummary[]>(second, cookie, "GET", "/api/imports");
    expect(listed.body.find((s) => s.id === id)).toMatchObject({ status: "done", rows: file.rows.length, processed: file.rows.length });
    console.info(
      `between batches: killed at row ${cursor} of ${file.rows.length}; first start ${firstStartMs} ms, start after kill -9 ${second.startMs} ms (${sinceKillMs} ms after the kill)`,
    );
    await expectDataDir(second, dataDir, prefix, file, id);
  });

  it("killed in the middle of a batch (its transaction open): the batch is rolled back, written once after the start at once", {
    timeout: 150_000,
  }, async () => {
    // Each batch pauses 300 ms inside its transaction, before writing its rows.
    const { dataDir, server: first, firstStartMs, cookie, prefix, file, id } = await staged(300);
    const session = await secondConnection(dataDir);
    await commitImport(first, cookie, id);
    await midway(first, cookie, id, file.rows.length, 100);

    // A query sent now runs at once between two batches, and waits while a batch's transaction holds
    // the session: one still unanswered after 100 ms means a batch is open (each lasts over 300 ms).
    let committed = await cursorOf(session, id);
    let killed = false;
    for (let attempt = 0; attempt < 100 && !killed; attempt++) {
      let answered = false;
      void cursorOf(session, id).then(
        (cursor) => {
          answered = true;
          if (!killed) committed = cursor;
        },
        () => {}, // the database process closes this connection when the server is gone
      );
      await sleep(100);
      if (!answered) {
        first.child.kill("SIGKILL");
        killed = true;
      }
    }
    if (!killed) throw new Error("the server's batches never held the database for 100 ms");
    await first.exited;
    const killedAt = Date.now();
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(file.rows.length);

    const { second, sinceKillMs } = await restarted(dataDir, killedAt);
    await session.end().catch(() => {});
    const job = await settled(second, cookie, id, 60_000);
    expectResult(job, file);
    console.info(
      `mid-batch: killed with the batch after row ${committed} of ${file.rows.length} open; first start ${firstStartMs} ms, start after kill -9 ${second.startMs} ms (${sinceKillMs} ms after the kill)`,
    );
    await expectDataDir(second, dataDir, prefix, file, id);
  });

  it("taps during imports keep the stock exact (one server, the one database session shared)", { timeout: 150_000 }, async () => {
    const dataDir = servers.migratedDir("blez-durable-taps-");
    const server = await servers.start(dataDir, { ...ENV, IMPORT_BATCH_PAUSE_MS: "20" });
    const cookie = await login(server, ADMIN.username, ADMIN.password);
    // Two tills tapping, each with a short pause: the runner writes a batch whenever no request waits.
    const options = { fillerRows: 600, tappers: 2, thinkMs: 10, settleMs: 60_000 };
    const merged = await tapsDuringImport(server, [server], cookie, true, options);
    const plain = await tapsDuringImport(server, [server], cookie, false, options);
    expect(await stop(server, "SIGTERM")).toBe(0);
    expectNoImportFailures(server);
    const database = await openDataDir(dataDir);
    try {
      const query: Query = async (sql, values) => (await database.pool.query(sql, values)).rows;
      await expectTapsExact(query, merged);
      await expectTapsExact(query, plain);
    } finally {
      await database.close();
    }
    const taps = (s: typeof merged) => s.tapped.reduce((n, t) => n + t.taps, 0);
    console.info(`embedded: ${taps(merged)} taps during the merging import, ${taps(plain)} during the plain one`);
  });
});
