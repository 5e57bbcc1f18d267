import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportSummary } from "../../../contract/imports.js";
import { stop } from "../../test/embedded-server.js";
import {
  commitImport,
  expectNoImportFailures,
  expectResult,
  expectTapsExact,
  expectWrittenOnce,
  importInOneCall,
  jobOf,
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
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../../test/server-processes.js";

/**
 * Imports as durable jobs on PostgreSQL with several real server processes (src/server/main.ts)
 * on one database: a process killed (kill -9) in the middle of a batch, or between two, and its
 * import taken over by another once its lease runs out; a file's parts sent to two processes;
 * taps on both while an import changes the same products. Counted in SQL on the servers' database.
 * Where a kill lands is made certain by the database: a lock the test holds that a batch waits
 * for, or the process stopped (SIGSTOP) where none of its connections is in a transaction.
 */

/** Small batches (the real setting), and a lease of 2 s: a process that died is taken over soon. */
const ENV = { IMPORT_BATCH_ROWS: "50", IMPORT_LEASE_SECONDS: "2" };
/** How long the connections of a stopped process must stay as they are: a statement it sent before it stopped has reached its connection by then. */
const STILL_MS = 500;
/** New barcodes alone at the start of the file: batches of one write statement each, then the mixed rows' transactions. */
const LIST_ROWS = 10_000;

let cluster: ServerProcesses;
/** The test's own connections to the servers' database: polled every few milliseconds, so kept open. */
let pool: pg.Pool;
let query: Query;

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_durable");
  pool = new pg.Pool({ connectionString: cluster.dbUrl, max: 2 });
  query = async (sql, values) => (await pool.query(sql, values)).rows;
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await cluster?.close();
}, 60_000);

/** The processes' connections carry their name (pg_stat_activity.application_name). */
const named = (name: string) => ({ DATABASE_URL: `${cluster.dbUrl}?application_name=${name}` });

/**
 * Process A, named `${name}_a`; a mixed file with a list of new barcodes before its mixed rows
 * (barcodes starting with `barcodePrefix`) whose existing products are made first, then the file
 * staged and committed on A, which writes it. A is the only process until it is killed: under
 * load it may go past its lease (while it reads the file before its first batch, or between two
 * batches), and another process would take the import over from it before the kill.
 */
async function importWrittenByA(name: string, barcodePrefix: string) {
  const a = await cluster.start({ ...ENV, ...named(`${name}_a`) });
  const cookie = await login(a, ADMIN.username, ADMIN.password);
  const prefix = uniquePrefix(barcodePrefix);
  const file = mixedImport(prefix, LIST_ROWS);
  expect(await importInOneCall(a, cookie, file.setup)).toMatchObject({ created: file.setup.length, errors: [] });
  const id = await stageImport([a], cookie, file.rows, 2_000);
  await commitImport(a, cookie, id);
  return { a, cookie, prefix, file, id };
}

const cursorOf = async (id: string) =>
  (await query<{ processed: number }>(`select processed from imports where id = $1`, [id]))[0]?.processed ?? 0;

/** Waits until the import's cursor is at `row` or past it. */
const cursorPast = (id: string, row: number) =>
  until(`import ${id} to pass row ${row}`, async () => (await cursorOf(id)) >= row || undefined, 90_000, 20);

/** Once killed, `a` has exited and the database has ended its connections (named `applicationName`). */
async function gone(a: ServerProcess, applicationName: string): Promise<void> {
  await a.exited;
  await until(
    "A's connections to end",
    async () => (await query(`select pid from pg_stat_activity where application_name = $1`, [applicationName])).length === 0,
    30_000,
    50,
  );
}

/** Nothing of a batch after the cursor stayed: the import's audit rows are those of the rows it counts. */
async function expectAuditOfCountedRows(id: string): Promise<void> {
  const [written] = await query<{ n: number }>(`select count(*)::int as n from product_audit where import_id = $1`, [id]);
  const [counted] = await query<{ n: number }>(`select (created + updated)::int as n from imports where id = $1`, [id]);
  expect(written?.n).toBe(counted?.n);
}

/**
 * A killed in the middle of a batch: the import's row held, A's next batch waits in its write
 * statement (which moves the cursor there) and A is killed meanwhile. `section`: the file's list
 * (the batch is that one statement, sent whole before the kill: once the row is let go, the
 * database may still commit it, cursor and rows together) or its mixed rows (the batch's
 * transaction, whose COMMIT never comes: rolled back). Process B, started then, takes the import
 * over once A's lease ran out.
 */
async function killedInABatch(name: string, section: "list" | "mixed"): Promise<void> {
  const { a, cookie, prefix, file, id } = await importWrittenByA(name, "KILL");
  const [from, to] = section === "list" ? [100, file.listRows] : [file.listRows + 100, file.rows.length];
  await cursorPast(id, from);

  // The import's row held: A's next batch waits in its write statement (which moves the cursor there).
  const holder = new pg.Client({ connectionString: cluster.dbUrl });
  await holder.connect();
  let held: number;
  try {
    await holder.query("begin");
    held = Number(
      (await holder.query<{ processed: number }>(`select processed from imports where id = $1 for update`, [id])).rows[0]?.processed,
    );
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(to);
    const holderPid = (await holder.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
    await until(
      "a batch of A's to wait for the import's row",
      async () =>
        (
          await query(`select pid from pg_stat_activity where application_name = $1 and $2::int = any(pg_blocking_pids(pid))`, [
            `${name}_a`,
            holderPid,
          ])
        ).length > 0,
      30_000,
      20,
    );
    a.child.kill("SIGKILL");
    await a.exited;
  } finally {
    await holder.end(); // the row let go
  }

  await gone(a, `${name}_a`);
  const [cut] = await query<{ processed: number; status: string; lease_until: Date }>(
    `select processed, status, lease_until from imports where id = $1`,
    [id],
  );
  if (!cut) throw new Error("the import is gone");
  expect(cut.status).toBe("committing");
  if (section === "list") expect([held, held + Number(ENV.IMPORT_BATCH_ROWS)]).toContain(cut.processed);
  else expect(cut.processed).toBe(held);
  await expectAuditOfCountedRows(id);

  // Another process started at once: it looks for imports whose lease ran out.
  const b = await cluster.start({ ...ENV, ...named(`${name}_b`) });
  const resumed = await until(
    "the import to move again",
    async () => {
      const [row] = await query<{ processed: number; status: string; lease_over: boolean }>(
        `select processed, status, now() > $2::timestamptz as lease_over from imports where id = $1`,
        [id, cut.lease_until],
      );
      return row && (row.processed > cut.processed || row.status !== "committing") ? row : undefined;
    },
    30_000,
    50,
  );
  expect(resumed.lease_over, "taken over before the lease ran out").toBe(true);
  const job = await settled(b, cookie, id, 120_000);
  expectResult(job, file);
  await expectWrittenOnce(query, prefix, file, id);
  const [after] = await query<{ attempts: number }>(`select attempts from imports where id = $1`, [id]);
  expect(after?.attempts).toBeGreaterThanOrEqual(2);
  console.info(`killed A with its batch after row ${held} of ${file.rows.length} waiting; the cursor after: ${cut.processed}`);
  expect(await stop(b, "SIGTERM")).toBe(0);
  expectNoImportFailures(a, b);
}

describe("durable imports on PostgreSQL, several server processes", () => {
  it(
    "a process killed (kill -9) in the middle of a batch of new barcodes only (its one write statement): another takes the import over once its lease ran out, every row once",
    {
      timeout: 180_000,
    },
    () => killedInABatch("durable_list", "list"),
  );

  it(
    "a process killed (kill -9) in the middle of a batch that updates products (its transaction open): another takes the import over once its lease ran out, every row once",
    {
      timeout: 180_000,
    },
    () => killedInABatch("durable_mixed", "mixed"),
  );

  it("a process killed (kill -9) between two batches: another takes the import over at the cursor, every row once", {
    timeout: 180_000,
  }, async () => {
    const { a, cookie, prefix, file, id } = await importWrittenByA("durable_gap", "GAP");
    await cursorPast(id, 100);

    // A stopped where none of its connections is in a statement or a transaction: no batch is
    // open, the last one committed. A statement A sent before it stopped runs to its end first,
    // and one still on its way shows within a moment: the connections must stay as they are.
    const connectionsOfA = () =>
      query<{ pid: number; state: string; state_change: Date }>(
        `select pid, state, state_change from pg_stat_activity where application_name = 'durable_gap_a' order by pid`,
      );
    const committed = await stoppedWhere(
      a,
      "A to stop between two batches",
      async () => {
        const idle = await until(
          "A's statements to end",
          async () => {
            const rows = await connectionsOfA();
            return rows.every((r) => r.state !== "active") ? rows : undefined;
          },
          30_000,
          10,
        );
        if (idle.some((r) => r.state !== "idle")) return undefined;
        await sleep(STILL_MS);
        if (JSON.stringify(await connectionsOfA()) !== JSON.stringify(idle)) return undefined;
        return await cursorOf(id);
      },
      60_000,
    );
    a.child.kill("SIGKILL");
    await gone(a, "durable_gap_a");
    // Nothing after the batch it had committed: the cursor is where it was, and so are the audit rows.
    expect(await cursorOf(id)).toBe(committed);
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(file.listRows);
    await expectAuditOfCountedRows(id);

    const b = await cluster.start({ ...ENV, ...named("durable_gap_b") });
    const job = await settled(b, cookie, id, 120_000);
    expectResult(job, file);
    await expectWrittenOnce(query, prefix, file, id);
    console.info(`killed A between two batches, after row ${committed} of ${file.rows.length}`);
    expect(await stop(b, "SIGTERM")).toBe(0);
    expectNoImportFailures(a, b);
  });

  describe("two processes P and Q", () => {
    let p: ServerProcess;
    let q: ServerProcess;
    let cookie: string;

    beforeAll(async () => {
      [p, q] = (await Promise.all([cluster.start(ENV), cluster.start(ENV)])) as [ServerProcess, ServerProcess];
      cookie = await login(p, ADMIN.username, ADMIN.password);
    }, 120_000);

    it("a file's parts sent to P and Q in turn, committed on Q, polled on P: imported whole, every barcode once", {
      timeout: 120_000,
    }, async () => {
      const prefix = uniquePrefix("ALT");
      const file = mixedImport(prefix);
      expect(await importInOneCall(q, cookie, file.setup)).toMatchObject({ created: file.setup.length, errors: [] });
      // Part 0 to P, part 1 to Q, part 2 to P...: each answer counts the rows staged through both.
      const id = await stageImport([p, q], cookie, file.rows, 500);
      expect(await jobOf(p, cookie, id)).toEqual({ id, status: "staging", received: file.rows.length });
      await commitImport(q, cookie, id);
      const job = await settled(p, cookie, id, 90_000);
      expectResult(job, file);
      await expectWrittenOnce(query, prefix, file, id);
      const listed = await api<ImportSummary[]>(p, cookie, "GET", "/api/imports");
      expect(listed.body.find((s) => s.id === id)).toMatchObject({ status: "done", rows: file.rows.length, processed: file.rows.length });
      expectNoImportFailures(p, q);
    });

    it("taps on P and Q while an import on P changes the same products: every tap counted once", { timeout: 120_000 }, async () => {
      const options = { fillerRows: 3_000, tappers: 4, thinkMs: 0, settleMs: 60_000 };
      // Rows with the export's updated_at (price and location changed, the stock as exported): the stock is the taps' exactly.
      const merged = await tapsDuringImport(p, [p, q], cookie, true, options);
      await expectTapsExact(query, merged);
      // Rows without updated_at carrying the stock from before the taps (the spec sets it): each change is still accounted for once.
      const plain = await tapsDuringImport(p, [p, q], cookie, false, options);
      await expectTapsExact(query, plain);
      expectNoImportFailures(p, q);
      const taps = (s: typeof merged) => s.tapped.reduce((n, t) => n + t.taps, 0);
      console.info(`PostgreSQL: ${taps(merged)} taps during the merging import, ${taps(plain)} during the plain one`);
    });
  });
});
