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
  stageImport,
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
 */

/** Small batches, and a lease of 2 s: a process that died is taken over soon. */
const ENV = { IMPORT_BATCH_ROWS: "50", IMPORT_LEASE_SECONDS: "2" };

let cluster: ServerProcesses;
let query: Query;

beforeAll(async () => {
  cluster = await ServerProcesses.create("blez_durable");
  query = (sql, values) => cluster.query(sql, values);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

/** The processes' connections carry their name (pg_stat_activity.application_name). */
const named = (name: string) => ({ DATABASE_URL: `${cluster.dbUrl}?application_name=${name}` });

/**
 * Processes A (with `envOfA`) and B, named `${name}_a` and `${name}_b`; a mixed file (barcodes
 * starting with `barcodePrefix`) whose existing products are made through B, then the file staged
 * on both and committed on A, which writes it.
 */
async function importWrittenByA(name: string, barcodePrefix: string, envOfA: Record<string, string>) {
  const [a, b] = (await Promise.all([
    cluster.start({ ...ENV, ...envOfA, ...named(`${name}_a`) }),
    cluster.start({ ...ENV, ...named(`${name}_b`) }),
  ])) as [ServerProcess, ServerProcess];
  const cookie = await login(b, ADMIN.username, ADMIN.password);
  const prefix = uniquePrefix(barcodePrefix);
  const file = mixedImport(prefix);
  expect(await importInOneCall(b, cookie, file.setup)).toMatchObject({ created: file.setup.length, errors: [] });
  const id = await stageImport([a, b], cookie, file.rows, 800);
  await commitImport(a, cookie, id);
  return { a, b, cookie, prefix, file, id };
}

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

describe("durable imports on PostgreSQL, several server processes", () => {
  it("a process killed (kill -9) in the middle of a batch: another takes the import over once its lease ran out, every row once", {
    timeout: 150_000,
  }, async () => {
    // A pauses 300 ms inside each batch's transaction (before writing its rows); B does not.
    const { a, b, cookie, prefix, file, id } = await importWrittenByA("durable", "KILL", { IMPORT_BATCH_PAUSE_MS: "300" });
    await until("A to write some rows", async () => ((await jobOf(b, cookie, id)).processed ?? 0) >= 100 || undefined, 60_000, 50);

    // A sits in a batch: its connection has been in a transaction for 100 ms (A's only transactions are its batches).
    await until(
      "a batch of A's to be open",
      async () =>
        (
          await query(
            `select pid from pg_stat_activity where datname = current_database() and application_name = 'durable_a'
             and state = 'idle in transaction' and now() - xact_start > interval '100 milliseconds'`,
          )
        ).length > 0,
      30_000,
      20,
    );
    a.child.kill("SIGKILL");
    await gone(a, "durable_a");
    const [cut] = await query<{ processed: number; status: string; lease_until: Date; attempts: number }>(
      `select processed, status, lease_until, attempts from imports where id = $1`,
      [id],
    );
    if (!cut) throw new Error("the import is gone");
    expect(cut.status).toBe("committing");
    expect(cut.processed).toBeGreaterThan(0);
    expect(cut.processed).toBeLessThan(file.rows.length);
    await expectAuditOfCountedRows(id);

    // A starts again at once (without the pause): B and the new A both look for imports whose lease ran out.
    const a2 = await cluster.start({ ...ENV, ...named("durable_a2") });
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
    const job = await settled(b, cookie, id, 60_000);
    expectResult(job, file);
    await expectWrittenOnce(query, prefix, file, id);
    const [after] = await query<{ attempts: number }>(`select attempts from imports where id = $1`, [id]);
    expect(after?.attempts).toBeGreaterThanOrEqual(2);
    console.info(`killed A with the batch after row ${cut.processed} of ${file.rows.length} open; claims in all: ${after?.attempts}`);
    expect(await stop(b, "SIGTERM")).toBe(0);
    expect(await stop(a2, "SIGTERM")).toBe(0);
    expectNoImportFailures(a, b, a2);
  });

  it("a process killed (kill -9) between two batches: another takes the import over at the cursor, every row once", {
    timeout: 150_000,
  }, async () => {
    // A waits 1 s after each batch commits (its lease lasts 2 s), with no transaction open; B imports nothing itself.
    const { a, b, cookie, prefix, file, id } = await importWrittenByA("durable_gap", "GAP", { IMPORT_BATCH_GAP_MS: "1000" });
    const cursor = async () => (await query<{ processed: number }>(`select processed from imports where id = $1`, [id]))[0]?.processed ?? 0;
    await until("A to write some rows", async () => (await cursor()) >= 100 || undefined, 60_000, 50);

    // Right after a batch commits (the cursor moved), A waits and holds no transaction: killed then.
    const committed = await until(
      "a batch of A's to commit with none of A's statements running",
      async () => {
        const before = await cursor();
        const moved = await until(
          "the cursor to move",
          async () => {
            const now = await cursor();
            return now > before ? now : undefined;
          },
          30_000,
          10,
        );
        const busy = await query(
          `select pid from pg_stat_activity where application_name = 'durable_gap_a' and state in ('active', 'idle in transaction')`,
        );
        if (busy.length > 0) return undefined;
        a.child.kill("SIGKILL");
        return moved;
      },
      60_000,
      0,
    );
    await gone(a, "durable_gap_a");
    // Nothing after the batch it had committed: the cursor is where it was, and so are the audit rows.
    expect(await cursor()).toBe(committed);
    expect(committed).toBeLessThan(file.rows.length);
    await expectAuditOfCountedRows(id);

    const a2 = await cluster.start({ ...ENV, ...named("durable_gap_a2") });
    const job = await settled(b, cookie, id, 60_000);
    expectResult(job, file);
    await expectWrittenOnce(query, prefix, file, id);
    console.info(`killed A between two batches, after row ${committed} of ${file.rows.length}`);
    expect(await stop(b, "SIGTERM")).toBe(0);
    expect(await stop(a2, "SIGTERM")).toBe(0);
    expectNoImportFailures(a, b, a2);
  });

  describe("two processes P and Q", () => {
    let p: ServerProcess;
    let q: ServerProcess;
    let cookie: string;

    beforeAll(async () => {
      // A short pause in each batch: an import of a few thousand rows lasts a few seconds.
      [p, q] = (await Promise.all([
        cluster.start({ ...ENV, IMPORT_BATCH_PAUSE_MS: "20" }),
        cluster.start({ ...ENV, IMPORT_BATCH_PAUSE_MS: "20" }),
      ])) as [ServerProcess, ServerProcess];
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
      const options = { fillerRows: 1_500, tappers: 4, thinkMs: 0, settleMs: 60_000 };
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
