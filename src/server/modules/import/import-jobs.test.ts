import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkImportRow, type ImportJob, type ImportPreview } from "../../../contract/import.js";
import { productAudit, products } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { withTransaction } from "../../db/tx.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { planBatch } from "./import.plan.js";
import { writeBatch } from "./import-batch.js";
import { claimJob, findJob, insertJob, jobErrors, markCommitting, recordBatch } from "./import-jobs.repo.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let other: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  other = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

const rows = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({
    barcode: `${prefix}-${i}`,
    product_name: `Part Card ${i}`,
    vendor: "Topps",
    quantity_on_hand: "3",
  }));

async function settle(api: typeof manager, id: string): Promise<ImportJob> {
  for (;;) {
    const job = (await api.get(`/api/products/import/jobs/${id}`)).json() as ImportJob;
    if (job.status === "done" || job.status === "failed") return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a file in parts", () => {
  it("stages the parts in the database, then writes them all as one import; retried parts replace themselves", async () => {
    const prefix = newBarcode("JOB");
    const start = await manager.post("/api/products/import/jobs");
    expect(start.statusCode).toBe(201);
    const { id } = start.json() as ImportJob;
    const all = rows(25, prefix);
    expect((await manager.put(`/api/products/import/jobs/${id}/parts/0`, { products: all.slice(0, 10) })).json()).toMatchObject({
      status: "staging",
      received: 10,
    });
    await manager.put(`/api/products/import/jobs/${id}/parts/1`, { products: all.slice(10, 20) });
    // The same part again (a retry after a lost answer) does not count twice.
    await manager.put(`/api/products/import/jobs/${id}/parts/1`, { products: all.slice(10, 20) });
    expect((await manager.put(`/api/products/import/jobs/${id}/parts/2`, { products: all.slice(20) })).json()).toMatchObject({
      received: 25,
    });
    // Nothing is written while staging.
    expect(
      await t.app.db
        .select()
        .from(products)
        .where(eq(products.barcode, `${prefix}-0`)),
    ).toHaveLength(0);

    const commit = await manager.post(`/api/products/import/jobs/${id}/commit`);
    expect(commit.statusCode).toBe(202);
    const done = await settle(manager, id);
    expect(done).toMatchObject({ status: "done", result: { created: 25, updated: 0, skipped: 0, errors: [] } });
    expect(
      await t.app.db
        .select()
        .from(products)
        .where(eq(products.barcode, `${prefix}-24`)),
    ).toHaveLength(1);
    expect((await manager.post(`/api/products/import/jobs/${id}/commit`)).statusCode).toBe(409);
  });

  it("numbers rows as the file does: a duplicate across parts and an invalid row are reported with their file row", async () => {
    const prefix = newBarcode("JOBERR");
    const { id } = (await manager.post("/api/products/import/jobs")).json() as ImportJob;
    const first = rows(3, prefix);
    await manager.put(`/api/products/import/jobs/${id}/parts/0`, { products: first });
    await manager.put(`/api/products/import/jobs/${id}/parts/1`, { products: [first[0], { barcode: "", product_name: "x", vendor: "y" }] });
    await manager.post(`/api/products/import/jobs/${id}/commit`);
    const done = await settle(manager, id);
    expect(done.result?.created).toBe(3);
    expect(done.result?.errors).toEqual([expect.stringMatching(/^Row 5: Duplicate barcode/), "Row 6: Missing required field 'barcode'"]);
  });

  it("refuses a missing part, another user's import, and users who cannot manage products", async () => {
    const { id } = (await manager.post("/api/products/import/jobs")).json() as ImportJob;
    await manager.put(`/api/products/import/jobs/${id}/parts/1`, { products: rows(1, newBarcode("GAP")) });
    const gap = await manager.post(`/api/products/import/jobs/${id}/commit`);
    expect(gap.statusCode).toBe(400);
    expect(gap.json()).toEqual({ error: "Part 0 is missing" });
    expect((await other.get(`/api/products/import/jobs/${id}`)).statusCode).toBe(404);
    expect((await other.put(`/api/products/import/jobs/${id}/parts/0`, { products: [] })).statusCode).toBe(404);
    expect((await streamer.post("/api/products/import/jobs")).statusCode).toBe(403);
  });

  it("a part of a file previews with the file's row numbers (first_row)", async () => {
    const res = await manager.post("/api/products/import?dry_run=true", {
      products: [{ barcode: "", product_name: "x", vendor: "y" }],
      first_row: 5002,
    });
    expect((res.json() as ImportPreview).errors).toEqual(["Row 5002: Missing required field 'barcode'"]);
  });
});

describe("a batch and the import's cursor, moved in the batch's write statement", () => {
  /** A committed import that `runner` holds, and who writes its batches. */
  async function importHeldBy(runner: string) {
    const db = t.app.db;
    const { user } = await signedIn(t.app, "manager");
    const job = await insertJob(db, { id: randomUUID(), userId: user.id, userName: user.username, ipAddress: null, firstRow: 2 });
    await withTransaction(db, (tx) => markCommitting(tx, job.id));
    expect(await claimJob(db, job.id, runner, 60_000, false)).toBeDefined();
    const who = { userId: user.id, userName: user.username, ipAddress: null, importId: job.id, note: "CSV import" };
    return { db, job, who };
  }

  it("moves the cursor with the counts and errors only for the runner holding the import at that cursor; else the batch rolls back whole", async () => {
    const { db, job, who } = await importHeldBy("runner-a");
    const prefix = newBarcode("CUR");
    const batchRows = [...rows(3, prefix), { barcode: "", product_name: "x", vendor: "y" }];
    const created = async () =>
      (
        await db
          .select()
          .from(products)
          .where(eq(products.barcode, `${prefix}-0`))
      ).length;
    const notMoved = new Error("not moved");
    // As ImportRunner.batch: one transaction, rolled back when the cursor did not move.
    const runBatch = (runner: string) =>
      withTransaction(db, async (tx) => {
        const written = await writeBatch(
          tx,
          who,
          planBatch({ firstRowNumber: 2, checks: batchRows.map(checkImportRow), firstRowOf: () => undefined }),
          (outcome) => recordBatch(job.id, { runner, from: 0, to: 4, leaseMs: 60_000, last: false }, outcome),
        );
        if (!written.moved) throw notMoved;
        // Not the import's last batch: it commits without waiting for the disk.
        const [setting] = rowsOf<{ value: string }>(await tx.execute(sql`select current_setting('synchronous_commit') as value`));
        return { ...written, synchronousCommit: setting?.value };
      });

    // Another runner than the one holding the import: what its statement wrote does not stay.
    await expect(runBatch("runner-b")).rejects.toBe(notMoved);
    expect(await created()).toBe(0);

    expect(await runBatch("runner-a")).toMatchObject({
      moved: true,
      created: 3,
      updated: 0,
      skipped: 1,
      revision: expect.any(Number),
      synchronousCommit: "off",
    });
    expect(await findJob(db, job.id)).toMatchObject({ processed: 4, created: 3, updated: 0, skipped: 1, errorCount: 1 });
    expect(await jobErrors(db, job.id)).toEqual(["Row 5: Missing required field 'barcode'"]);
    expect(await created()).toBe(1);

    // The same batch again (a runner that did not see its own commit): the cursor is past it, nothing is written twice.
    await expect(runBatch("runner-a")).rejects.toBe(notMoved);
    expect(await created()).toBe(1);
    expect(await jobErrors(db, job.id)).toHaveLength(1);
  });

  it("a batch of new barcodes is its one statement, committed on its own: it writes only for the runner holding the import at that cursor", async () => {
    const { db, job, who } = await importHeldBy("runner-a");
    const prefix = newBarcode("ONE");
    // As ImportRunner.batch when the plan looks nothing up: no transaction around the statement.
    const plan = planBatch({
      firstRowNumber: 2,
      checks: rows(3, prefix).map(checkImportRow),
      firstRowOf: () => undefined,
      mayExist: () => false,
    });
    expect(plan.lookUp).toEqual([]);
    const runBatch = (runner: string) =>
      writeBatch(db, who, plan, (outcome) => recordBatch(job.id, { runner, from: 0, to: 3, leaseMs: 60_000, last: false }, outcome));
    const written = async () => ({
      products: (
        await db
          .select()
          .from(products)
          .where(sql`${products.barcode} like ${`${prefix}-%`}`)
      ).length,
      audit: (await db.select().from(productAudit).where(eq(productAudit.importId, job.id))).length,
    });

    expect(await runBatch("runner-b")).toMatchObject({ moved: false, revision: null });
    expect(await written()).toEqual({ products: 0, audit: 0 });
    expect(await runBatch("runner-a")).toMatchObject({ moved: true, created: 3, revision: expect.any(Number) });
    expect(await written()).toEqual({ products: 3, audit: 3 });
    expect(await findJob(db, job.id)).toMatchObject({ processed: 3, created: 3 });
    // Again (a runner that did not see its own commit): the cursor is past it, nothing is written twice.
    expect(await runBatch("runner-a")).toMatchObject({ moved: false });
    expect(await written()).toEqual({ products: 3, audit: 3 });
  });
});
