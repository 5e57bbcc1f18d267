import { request } from "node:http";
import { connect } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportPreview, ImportResult } from "../../../contract/import.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import { productAudit, products, quantityAudit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, ISO_UTC, newBarcode, recordEvents, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { importBodyWorker } from "./import-body.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let inventoryId: number;

async function signIn(role: Role) {
  const { user, cookie } = await signedIn(t.app, role);
  return { user, api: caller(t.app, cookie) };
}

beforeAll(async () => {
  t = await createTestApp();
  const m = await signIn("manager");
  manager = m.api;
  const i = await signIn("inventory");
  inventory = i.api;
  inventoryId = i.user.id;
  streamer = (await signIn("streamer")).api;
});
afterAll(async () => {
  await t?.close();
});

const importRows = (api: typeof manager, rows: unknown[], dryRun = false) =>
  api.post(`/api/products/import${dryRun ? "?dry_run=true" : ""}`, { products: rows });
const productByBarcode = async (barcode: string) => (await t.app.db.select().from(products).where(eq(products.barcode, barcode)))[0];
const auditsOf = (id: number) => t.app.db.select().from(productAudit).where(eq(productAudit.productId, id)).orderBy(productAudit.id);
const quantityAuditsOf = (id: number) =>
  t.app.db.select().from(quantityAudit).where(eq(quantityAudit.productId, id)).orderBy(quantityAudit.id);

/** One file with every kind of row: new, changed, unchanged and invalid ones. */
async function mixedFile() {
  const changed = await manager.create({ vendor: "Topps", quantity_on_hand: 5, release_year: 2020 });
  const same = await manager.create({ vendor: "Panini", quantity_on_hand: 2, release_year: null });
  const fresh = newBarcode("NEW");
  const freshEmpty = newBarcode("NEW");
  const rows = [
    {
      barcode: ` ${fresh} `,
      product_name: " Chrome Hobby ",
      vendor: "Topps",
      release_year: "2024",
      quantity_on_hand: "12",
      is_active: "yes",
    },
    {
      barcode: changed.barcode,
      product_name: changed.product_name,
      vendor: "Bowman",
      release_year: "2020",
      quantity_on_hand: "8",
      is_active: "",
    },
    { barcode: same.barcode, product_name: same.product_name, vendor: "Panini", release_year: "", quantity_on_hand: 2, is_active: true },
    { barcode: "", product_name: "No barcode", vendor: "Topps" },
    { barcode: "AB", product_name: "Short", vendor: "Topps" },
    { barcode: newBarcode(), product_name: "Bad qty", vendor: "Topps", quantity_on_hand: "-1" },
    { barcode: newBarcode(), product_name: "Bad year", vendor: "Topps", release_year: "1899" },
    { barcode: newBarcode(), product_name: "Bad active", vendor: "Topps", is_active: "maybe" },
    { barcode: freshEmpty, product_name: "Defaults", vendor: "Leaf", release_year: "", quantity_on_hand: "", is_active: "NO" },
  ];
  return { changed, same, fresh, freshEmpty, rows };
}

const MIXED_ERRORS = [
  "Row 5: Missing required field 'barcode'",
  "Row 6: Barcode too short",
  "Row 7: Invalid quantity (must be 0 or positive number)",
  "Row 8: Invalid release year (must be between 1900-2030)",
  "Row 9: Invalid is_active value (use: true/false, 1/0, yes/no)",
];

describe("POST /api/products/import", () => {
  it("creates new barcodes, updates changed rows, skips unchanged and invalid ones, and reports every error", async () => {
    const { changed, same, fresh, freshEmpty, rows } = await mixedFile();
    const rec = recordEvents(t.app);
    const res = await importRows(inventory, rows);
    rec.stop();
    expect(res.statusCode).toBe(200);
    expect(res.json<ImportResult>()).toEqual({ import_id: expect.any(String), created: 2, updated: 1, skipped: 6, errors: MIXED_ERRORS });

    const created = await productByBarcode(fresh);
    expect(created).toMatchObject({
      productName: "Chrome Hobby",
      vendor: "Topps",
      releaseYear: 2024,
      quantityOnHand: 12,
      isActive: true,
      version: 1,
    });
    expect(await productByBarcode(freshEmpty)).toMatchObject({ releaseYear: null, quantityOnHand: 0, isActive: false });
    expect(await productByBarcode(changed.barcode)).toMatchObject({ vendor: "Bowman", quantityOnHand: 8, version: 2 });
    expect(await productByBarcode(same.barcode)).toMatchObject({ version: 1 });

    // Audit: CREATE (+ `import` quantity entry when stock > 0), UPDATE listing only changed fields.
    const createdAudit = await auditsOf(created?.id as number);
    expect(createdAudit).toMatchObject([{ action: "CREATE", userId: inventoryId, ipAddress: "127.0.0.1", oldValues: null }]);
    expect(await quantityAuditsOf(created?.id as number)).toMatchObject([
      { transactionType: "import", quantityChange: 12, quantityBefore: 0, quantityAfter: 12 },
    ]);
    const emptyId = (await productByBarcode(freshEmpty))?.id as number;
    expect(await quantityAuditsOf(emptyId)).toEqual([]);
    expect((await auditsOf(changed.id)).at(-1)).toMatchObject({
      action: "UPDATE",
      changedFields: ["vendor", "quantity_on_hand"],
      oldValues: { vendor: "Topps", quantity_on_hand: 5 },
      newValues: { vendor: "Bowman", quantity_on_hand: 8 },
    });
    expect((await quantityAuditsOf(changed.id)).at(-1)).toMatchObject({
      transactionType: "import",
      quantityChange: 3,
      quantityBefore: 5,
      quantityAfter: 8,
      notes: "CSV import",
    });
    expect(await auditsOf(same.id)).toHaveLength(1);

    expect(rec.events).toEqual([
      {
        type: "products_imported",
        data: { updated_by: expect.any(String), count: 3, revision: expect.any(Number) },
        timestamp: expect.stringMatching(ISO_UTC),
        userId: inventoryId,
      },
    ]);
  });

  it("lists all errors, not only ten", async () => {
    const rows = Array.from({ length: 15 }, (_, i) => ({ barcode: "AB", product_name: `Short ${i}`, vendor: "V" }));
    const res = await importRows(manager, rows);
    expect(res.json<ImportResult>()).toEqual({
      import_id: expect.any(String),
      created: 0,
      updated: 0,
      skipped: 15,
      errors: rows.map((_, i) => `Row ${i + 2}: Barcode too short`),
    });
  });

  it("imports the first of duplicate barcodes in one file and reports the later ones", async () => {
    const barcode = newBarcode("DUP");
    const res = await importRows(manager, [
      { barcode, product_name: "First", vendor: "Topps", quantity_on_hand: "1" },
      { barcode: newBarcode(), product_name: "Other", vendor: "Topps" },
      { barcode: ` ${barcode}`, product_name: "Second", vendor: "Topps", quantity_on_hand: "2" },
    ]);
    expect(res.json<ImportResult>()).toEqual({
      import_id: expect.any(String),
      created: 2,
      updated: 0,
      skipped: 1,
      errors: [`Row 4: Duplicate barcode '${barcode}' (already in row 2; only the first is imported)`],
    });
    expect(await productByBarcode(barcode)).toMatchObject({ productName: "First", quantityOnHand: 1 });
  });

  it("finds a duplicate and an existing product far into a large file (other chunks, another look-up statement than their first rows)", async () => {
    const existing = await manager.create({ vendor: "Topps", quantity_on_hand: 1 });
    const prefix = newBarcode("FAR");
    const rows = Array.from({ length: 7000 }, (_, i) => ({ barcode: `${prefix}-${i}`, product_name: `Far Card ${i}`, vendor: "Topps" }));
    rows[6500] = { barcode: existing.barcode, product_name: existing.product_name, vendor: "Bowman" };
    rows[6900] = { barcode: ` ${prefix}-10`, product_name: "Far Card again", vendor: "Topps" };
    const res = await importRows(manager, rows);
    expect(res.json<ImportResult>()).toMatchObject({
      created: 6998,
      updated: 1,
      skipped: 1,
      errors: [`Row 6902: Duplicate barcode '${prefix}-10' (already in row 12; only the first is imported)`],
    });
    expect(await productByBarcode(`${prefix}-10`)).toMatchObject({ productName: "Far Card 10" });
    expect(await productByBarcode(existing.barcode)).toMatchObject({ vendor: "Bowman", version: existing.version + 1 });
  });

  it("writes nothing and raises no event when every row is unchanged", async () => {
    const p = await manager.create();
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await importRows(manager, [
      {
        barcode: p.barcode,
        product_name: p.product_name,
        vendor: p.vendor,
        release_year: p.release_year,
        quantity_on_hand: p.quantity_on_hand,
        is_active: "1",
      },
    ]);
    rec.stop();
    expect(res.json()).toEqual({ import_id: expect.any(String), created: 0, updated: 0, skipped: 1, errors: [] });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);
  });

  it("leaves the database exactly as it was when a row fails inside its batch (each batch is one transaction)", async () => {
    const existing = await manager.create({ quantity_on_hand: 3 });
    const doomed = await manager.create({ barcode: newBarcode("FAIL"), quantity_on_hand: 1 });
    const rows = [
      ...Array.from({ length: 50 }, (_, i) => ({
        barcode: newBarcode("OK"),
        product_name: `Card ${i}`,
        vendor: "Topps",
        quantity_on_hand: "4",
      })),
      {
        barcode: existing.barcode,
        product_name: existing.product_name,
        vendor: existing.vendor,
        release_year: "2024",
        quantity_on_hand: "9",
      },
      { barcode: doomed.barcode, product_name: "Boom", vendor: "Topps", release_year: "2024", quantity_on_hand: "2" },
      ...Array.from({ length: 50 }, (_, i) => ({ barcode: newBarcode("OK"), product_name: `Card ${i}`, vendor: "Topps" })),
    ];
    // A database-level failure on one row in the middle of the set-based update, which runs
    // after the new products were inserted: the rollback has to undo those too.
    await t.app.db.execute(
      sql.raw(`
      create or replace function fail_one_import_row() returns trigger language plpgsql as $$
      begin
        if new.barcode = '${doomed.barcode}' and new.product_name = 'Boom' then raise exception 'row refused by trigger'; end if;
        return new;
      end $$`),
    );
    await t.app.db.execute(
      sql`create trigger fail_one_import_row before insert or update on products for each row execute function fail_one_import_row()`,
    );
    try {
      const before = await snapshot(t.app.db);
      const rec = recordEvents(t.app);
      const res = await importRows(manager, rows);
      rec.stop();
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: "Internal server error" });
      expect(await snapshot(t.app.db)).toEqual(before);
      expect(rec.events).toEqual([]);
      // The failure really was in the middle: the same file without the failing row goes through.
      const ok = await importRows(
        manager,
        rows.filter((r) => r.barcode !== doomed.barcode),
      );
      expect(ok.json()).toMatchObject({ created: 100, updated: 1, skipped: 0 });
    } finally {
      await t.app.db.execute(sql`drop trigger fail_one_import_row on products`);
    }
  });

  it("is refused to a streamer (403) and to signed-out callers (401)", async () => {
    const row = { barcode: newBarcode(), product_name: "x", vendor: "y" };
    expect((await importRows(streamer, [row])).statusCode).toBe(403);
    expect((await importRows(streamer, [row], true)).statusCode).toBe(403);
    expect((await t.app.inject({ method: "POST", url: "/api/products/import", payload: { products: [row] } })).statusCode).toBe(401);
    expect(await productByBarcode(row.barcode)).toBeUndefined();
  });

  it("reads a large body in a worker thread: its rows import, and a bad row in it answers 400 with its path", async () => {
    const prefix = newBarcode("BIG");
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      barcode: `${prefix}-${i}`,
      product_name: `Large Body Card ${i} ${"x".repeat(60)}`,
      vendor: "Topps",
      quantity_on_hand: "2",
    }));
    expect(JSON.stringify({ products: rows }).length).toBeGreaterThan(256 * 1024);
    const res = await importRows(manager, rows);
    expect(res.json()).toMatchObject({ created: 3000, updated: 0, skipped: 0, errors: [] });
    expect(await productByBarcode(`${prefix}-2999`)).toMatchObject({ quantityOnHand: 2 });
    const bad = await importRows(manager, [...rows.slice(0, 2999), { barcode: { nested: true } }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: [{ path: "products.2999.barcode" }] });
  });

  it("ends the body worker once idle, and starts it again for the next large body", async () => {
    const prefix = newBarcode("IDLE");
    const rows = (from: number) =>
      Array.from({ length: 3000 }, (_, i) => ({
        barcode: `${prefix}-${from + i}`,
        product_name: `Idle ${i} ${"x".repeat(80)}`,
        vendor: "Topps",
      }));
    try {
      expect((await importRows(manager, rows(0))).json()).toMatchObject({ created: 3000, errors: [] });
      expect(importBodyWorker.running()).toBe(true);
      // The next read (a dry run, also read in the worker) arms the shorter wait.
      importBodyWorker.setIdleMs(100);
      expect((await importRows(manager, rows(3000), true)).statusCode).toBe(200);
      await expect.poll(() => importBodyWorker.running(), { timeout: 5_000 }).toBe(false);
      expect((await importRows(manager, rows(3000))).json()).toMatchObject({ created: 3000, errors: [] });
      expect(await productByBarcode(`${prefix}-5999`)).toBeDefined();
    } finally {
      importBodyWorker.setIdleMs(30_000);
    }
  });

  it("reads a body that arrives in pieces without a length: a large one imports whole, one over the limit answers 413", async () => {
    const { cookie } = await signedIn(t.app, "manager");
    const address = await listening();
    const prefix = newBarcode("PIECES");
    // Names with characters of two and three bytes: pieces cut through them must join whole.
    const rows = Array.from({ length: 4000 }, (_, i) => ({
      barcode: `${prefix}-${i}`,
      product_name: `Pokémon ★ ${i} ${"é".repeat(40)}`,
      vendor: "Topps",
    }));
    const body = Buffer.from(JSON.stringify({ products: rows }));
    expect(body.length).toBeGreaterThan(256 * 1024);
    const ok = await sendInPieces(`${address}/api/products/import`, cookie, body, 7_777);
    expect(ok.status, ok.text).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ created: 4000, errors: [] });
    expect(await productByBarcode(`${prefix}-3999`)).toMatchObject({ productName: `Pokémon ★ 3999 ${"é".repeat(40)}` });
    const tooLarge = await sendInPieces(`${address}/api/products/import`, cookie, Buffer.alloc(17 * 1024 * 1024, 32), 256 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text)).toEqual({ error: "Request body is too large" });
  });

  it("drops a large body whose client goes away halfway, and reads the next one", async () => {
    const { cookie } = await signedIn(t.app, "manager");
    const address = new URL(await listening());
    const prefix = newBarcode("DROPPED");
    const rows = Array.from({ length: 4000 }, (_, i) => ({
      barcode: `${prefix}-${i}`,
      product_name: `Dropped ${i} ${"x".repeat(60)}`,
      vendor: "Topps",
    }));
    const body = Buffer.from(JSON.stringify({ products: rows }));
    // Announces the whole body, sends 300 kB of it (past the size read in the worker thread), and hangs up.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(address.port), "127.0.0.1", () => {
        socket.write(
          `POST /api/products/import HTTP/1.1\r\nHost: shop.example\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.subarray(0, 300 * 1024), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    expect(await productByBarcode(`${prefix}-0`)).toBeUndefined();
    const res = await sendInPieces(`${address.origin}/api/products/import`, cookie, body, 64 * 1024);
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ created: 4000, errors: [] });
  });

  it("answers 400 when products is not a list, and 413 for a body that is too large", async () => {
    expect((await manager.post("/api/products/import", { products: "nope" })).statusCode).toBe(400);
    expect((await manager.post("/api/products/import", {})).statusCode).toBe(400);
    expect((await manager.post("/api/products/import", [{ barcode: "ABC" }])).statusCode).toBe(400);
    const huge = { products: [{ barcode: "ABC", product_name: "x".repeat(17 * 1024 * 1024), vendor: "y" }] };
    const res = await manager.post("/api/products/import", huge);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });
});

describe("POST /api/products/import?dry_run=true", () => {
  it("validates and matches exactly as an import would, per row, and writes nothing", async () => {
    const { changed, same, fresh, freshEmpty, rows } = await mixedFile();
    const before = await snapshot(t.app.db);
    const rec = recordEvents(t.app);
    const res = await importRows(manager, rows, true);
    rec.stop();
    expect(res.statusCode).toBe(200);
    const preview = res.json<ImportPreview>();
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(rec.events).toEqual([]);

    expect(preview).toMatchObject({ created: 2, updated: 1, skipped: 6, errors: MIXED_ERRORS });
    expect(preview.rows).toHaveLength(rows.length);
    expect(preview.rows[0]).toEqual({
      row: 2,
      barcode: fresh,
      action: "create",
      changes: {
        barcode: [null, fresh],
        product_name: [null, "Chrome Hobby"],
        vendor: [null, "Topps"],
        release_year: [null, 2024],
        quantity_on_hand: [null, 12],
        is_active: [null, true],
      },
      error: null,
    });
    expect(preview.rows[1]).toEqual({
      row: 3,
      barcode: changed.barcode,
      action: "update",
      changes: { vendor: ["Topps", "Bowman"], quantity_on_hand: [5, 8] },
      error: null,
    });
    expect(preview.rows[2]).toEqual({ row: 4, barcode: same.barcode, action: "unchanged", changes: {}, error: null });
    expect(preview.rows.slice(3, 8)).toEqual(
      MIXED_ERRORS.map((error, i) => ({ row: i + 5, barcode: rows[i + 3]?.barcode, action: "invalid", changes: {}, error })),
    );
    expect(preview.rows[8]).toMatchObject({ row: 10, barcode: freshEmpty, action: "create" });

    // The real import then does exactly what the preview said.
    const real = await importRows(manager, rows);
    const { rows: _rows, ...summary } = preview;
    expect(real.json()).toEqual({ ...summary, import_id: expect.any(String) });
    const list = (await manager.get("/api/products")).json<Product[]>();
    expect(list.find((p) => p.barcode === changed.barcode)).toMatchObject({ vendor: "Bowman", quantity_on_hand: 8 });
  });

  it("answers 400 for an unknown dry_run value", async () => {
    expect((await manager.post("/api/products/import?dry_run=maybe", { products: [] })).statusCode).toBe(400);
  });

  it("previews an unchanged row as unchanged", async () => {
    const p = await manager.create();
    const res = await importRows(
      manager,
      [{ barcode: p.barcode, product_name: p.product_name, vendor: p.vendor, release_year: 2024, quantity_on_hand: 10 }],
      true,
    );
    expect(res.json()).toEqual({
      created: 0,
      updated: 0,
      skipped: 1,
      errors: [],
      rows: [{ row: 2, barcode: p.barcode, action: "unchanged", changes: {}, error: null }],
    });
  });
});

let listen: Promise<string> | undefined;
/** The test app's address over real HTTP (it listens once, for every test that needs a socket). */
const listening = () => {
  listen ??= t.app.listen({ port: 0, host: "127.0.0.1" });
  return listen;
};

/** POSTs `body` as JSON in pieces of `pieceBytes` with no Content-Length (chunked), as a streaming client would. */
function sendInPieces(url: string, cookie: string, body: Buffer, pieceBytes: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { cookie, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    // The server may answer (413) and close before the whole body is written.
    req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
    const write = async () => {
      for (let at = 0; at < body.length && !req.destroyed; at += pieceBytes) {
        if (!req.write(body.subarray(at, at + pieceBytes))) await new Promise((r) => req.once("drain", r));
      }
      req.end();
    };
    void write();
  });
}
