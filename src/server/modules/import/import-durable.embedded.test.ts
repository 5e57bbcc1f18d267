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
  type MixedImport,
  mixedImport,
  type Query,
  settled,
  sleep,
  stageImport,
  stoppedWhere,
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
 * one database session: a transaction held there stops every statement of the server's, and a
 * statement sent there waits while a transaction of the server's is open.
 */

/** Small batches (the real setting): the file's 6,000 rows take some 120 of them. */
const ENV = { IMPORT_BATCH_ROWS: "50" };
/** New barcodes alone at the start of the file: batches of one write statement each, then the mixed rows' transactions. */
const LIST_ROWS = 3_000;
/**
 * A start after kill -9 waits for the old database process to close (up to 15 s, then it would
 * refuse the folder as "already in use") and opens the folder: a few seconds, more on a busy machine.
 */
const RESTART_MAX_MS = 45_000;
/**
 * A statement on the second connection is answered as soon as the database is free, unless a
 * transaction of the server's is open: one still unanswered this long, with the server stopped,
 * waits for that transaction (a statement of the server's that was already sent is far shorter).
 */
const HELD_AFTER_MS = 3_000;

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

/** Waits until the import's cursor (read on the second connection) is at `row` or past it; answers it. */
const cursorPast = (session: pg.Client, id: string, row: number) =>
  until(
    `import ${id} to pass row ${row}`,
    async () => {
      const cursor = await cursorOf(session, id);
      return cursor >= row ? cursor : undefined;
    },
    90_000,
    20,
  );

/**
 * A server on a new data folder (its database migrated, no rows), the existing products of a
 * mixed file with a list of new barcodes before its mixed rows, and the file staged (not committed).
 */
async function staged() {
  const dataDir = servers.migratedDir("blez-durable-");
  const server = await servers.start(dataDir, ENV);
  const firstStartMs = server.startMs;
  const cookie = await login(server, ADMIN.username, ADMIN.password);
  const prefix = uniquePrefix("DUR");
  const file = mixedImport(prefix, LIST_ROWS);
  expect(await importInOneCall(server, cookie, file.setup)).toMatchObject({ created: file.setup.length, updated: 0, errors: [] });
  const id = await stageImport([server], cookie, file.rows, 2_000);
  return { dataDir, server, firstStartMs, cookie, prefix, file, id };
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
    timeout: 180_000,
  }, async () => {
    const { dataDir, server: first, firstStartMs, cookie, prefix, file, id } = await staged();
    const session = await secondConnection(dataDir);
    await commitImport(first, cookie, id);
    // Among the list's batches (one statement each): the server writes them one after another.
    await cursorPast(session, id, 300);

    // Between two batches: this transaction begins once no statement of the server's runs, and
    // the server's next batch waits for it. The server is killed while it waits.
    await session.query("begin");
    const cursor = await cursorOf(session, id);
    expect(cursor).toBeGreaterThan(0);
    expect(cursor).toBeLessThan(file.listRows);
    first.child.kill("SIGKILL");
    await first.exited;
    const killedAt = Date.now();
    await session.end().catch(() => {});

    const { second, sinceKillMs } = await restarted(dataDir, killedAt);
    const job = await settled(second, cookie, id, 120_000);
    expectResult(job, file);
    const listed = await api<ImportSummary[]>(second, cookie, "GET", "/api/imports");
    expect(listed.body.find((s) => s.id === id)).toMatchObject({ status: "done", rows: file.rows.length, processed: file.rows.length });
    console.info(
      `between batches: killed at row ${cursor} of ${file.rows.length}; first start ${firstStartMs} ms, start after kill -9 ${second.startMs} ms (${sinceKillMs} ms after the kill)`,
    );
    await expectDataDir(second, dataDir, prefix, file, id);
  });

  it("killed in the middle of a batch (its transaction open): the batch is rolled back, written once after the start at once", {
    timeout: 180_000,
  }, async () => {
    const { dataDir, server: first, firstStartMs, cookie, prefix, file, id } = await staged();
    const session = await secondConnection(dataDir);
    await commitImport(first, cookie, id);
    // Among the mixed rows: each batch locks the products it updates in a transaction of its own.
    let committed = await cursorPast(session, id, file.listRows + 100);

    // The server stopped where it is: a statement sent now is answered unless a batch's
    // transaction is open, which nothing ends while the server is stopped.
    let killed = false;
    await stoppedWhere(
      first,
      "the server to stop with a batch's transaction open",
      async () => {
        const answered = await Promise.race([
          cursorOf(session, id).then(
            (cursor) => {
              if (!killed) committed = cursor;
              return true;
            },
            () => true, // the database process closes this connection once the server is gone
          ),
          sleep(HELD_AFTER_MS).then(() => false),
        ]);
        return !answered;
      },
      90_000,
    );
    first.child.kill("SIGKILL");
    killed = true;
    await first.exited;
    const killedAt = Date.now();
    expect(committed).toBeGreaterThan(file.listRows);
    expect(committed).toBeLessThan(file.rows.length);

    const { second, sinceKillMs } = await restarted(dataDir, killedAt);
    await session.end().catch(() => {});
    const job = await settled(second, cookie, id, 120_000);
    expectResult(job, file);
    console.info(
      `mid-batch: killed with a batch open at row ${committed} or later, of ${file.rows.length}; first start ${firstStartMs} ms, start after kill -9 ${second.startMs} ms (${sinceKillMs} ms after the kill)`,
    );
    await expectDataDir(second, dataDir, prefix, file, id);
  });

  it("taps during imports keep the stock exact (one server, the one database session shared)", { timeout: 150_000 }, async () => {
    const dataDir = servers.migratedDir("blez-durable-taps-");
    const server = await servers.start(dataDir, ENV);
    const cookie = await login(server, ADMIN.username, ADMIN.password);
    // Two tills tapping, each with a short pause: the runner writes a batch whenever no request waits.
    const options = { fillerRows: 1_500, tappers: 2, thinkMs: 10, settleMs: 60_000 };
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
