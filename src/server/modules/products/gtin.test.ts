import { randomInt } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gs1CheckDigit, gtinKey } from "../../../contract/gtin.js";
import type { ImportPreview, ImportResult } from "../../../contract/import.js";
import type { Product } from "../../../contract/products.js";
import { MESSAGES } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { startEmbeddedDatabase } from "../../db/embedded/start.js";
import { rowsOf } from "../../db/sql.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { findProductJsonByBarcode } from "./products.repo.js";
import { reportSharedGtins } from "./products.service.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

/** A random UPC-A of number system 0 (so its EAN-13 is "0" + it, and a spreadsheet drops its first 0). */
function upcA(): string {
  const body = `0${String(randomInt(1, 10))}${String(randomInt(0, 1e9)).padStart(9, "0")}`;
  return `${body}${gs1CheckDigit(body)}`;
}

const lookup = async (code: string) => streamer.get(`/api/products/barcode/${encodeURIComponent(code)}`);

describe("lookup by GTIN", () => {
  it("a UPC-A finds the product stored as its EAN-13, and the reverse", async () => {
    const code = upcA();
    const stored = await manager.create({ barcode: `0${code}` });
    const found = await lookup(code);
    expect(found.statusCode).toBe(200);
    expect(found.json<Product>()).toMatchObject({ id: stored.id, barcode: `0${code}` });

    const other = upcA();
    const asUpcA = await manager.create({ barcode: other });
    expect((await lookup(`0${other}`)).json<Product>().id).toBe(asUpcA.id);
    // GTIN-14 and the spreadsheet's zero-less form find it too.
    expect((await lookup(`00${other}`)).json<Product>().id).toBe(asUpcA.id);
    expect((await lookup(other.replace(/^0+/, ""))).json<Product>().id).toBe(asUpcA.id);
  });

  it("820650853548 finds 0820650853548 (UPC-A and the EAN-13 a camera reports)", async () => {
    const stored = await manager.create({ barcode: "0820650853548" });
    expect((await lookup("820650853548")).json<Product>().id).toBe(stored.id);
  });

  it("a UPC-E finds its UPC-A", async () => {
    const stored = await manager.create({ barcode: "042100005264" });
    expect((await lookup("04252614")).json<Product>().id).toBe(stored.id);
  });

  it("other codes compare exactly: case, leading zeros and wrong check digits matter", async () => {
    const tag = String(randomInt(1e5, 1e6));
    const upper = await manager.create({ barcode: `SC-${tag}` });
    const lower = await manager.create({ barcode: `sc-${tag}` });
    expect((await lookup(`SC-${tag}`)).json<Product>().id).toBe(upper.id);
    expect((await lookup(`sc-${tag}`)).json<Product>().id).toBe(lower.id);
    const short = await manager.create({ barcode: `00${tag.slice(0, 3)}` });
    expect((await lookup(`00${tag.slice(0, 3)}`)).json<Product>().id).toBe(short.id);
    expect((await lookup(tag.slice(0, 3))).statusCode).toBe(404);
    const code = upcA();
    const wrong = `${code.slice(0, -1)}${(Number(code.slice(-1)) + 1) % 10}`;
    await manager.create({ barcode: wrong });
    expect((await lookup(`0${wrong}`)).statusCode).toBe(404);
  });
});

describe("one product per GTIN", () => {
  it("creating another form of an existing GTIN is a 409; the stored barcode keeps what was typed", async () => {
    const code = upcA();
    const first = await manager.create({ barcode: code });
    expect(first.barcode).toBe(code);
    for (const form of [`0${code}`, `00${code}`, code.replace(/^0+/, "")]) {
      const res = await manager.post("/api/products", { barcode: form, product_name: "Again", vendor: "Topps" });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: MESSAGES.barcodeExists });
    }
  });

  it("two forms created at the same moment: one is created, the other is a 409", async () => {
    const code = upcA();
    const answers = await Promise.all(
      [code, `0${code}`].map((barcode) => manager.post("/api/products", { barcode, product_name: "Race", vendor: "Topps" })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it("an edit to another product's GTIN is a 409; an edit to another form of its own GTIN is kept as typed", async () => {
    const a = await manager.create({ barcode: upcA() });
    const b = await manager.create({ barcode: upcA() });
    const clash = await manager.put(`/api/products/${b.id}`, { barcode: `0${a.barcode}` });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: MESSAGES.barcodeExists });
    const own = await manager.put(`/api/products/${b.id}`, { barcode: `0${b.barcode}` });
    expect(own.statusCode).toBe(200);
    expect(own.json<Product>().barcode).toBe(`0${b.barcode}`);
    expect((await lookup(b.barcode)).json<Product>().id).toBe(b.id);
  });
});

describe("import by GTIN", () => {
  it("a CSV whose barcodes lost their leading zeros updates the products instead of duplicating them", async () => {
    const codes = [upcA(), upcA(), upcA()];
    const stored = [];
    for (const code of codes) stored.push(await manager.create({ barcode: code, quantity_on_hand: 5 }));
    const rows = codes.map((code) => ({
      barcode: code.replace(/^0+/, ""),
      product_name: "Test Card",
      vendor: "Topps",
      release_year: "2024",
      quantity_on_hand: "9",
      is_active: "true",
    }));
    const preview = (await manager.post("/api/products/import?dry_run=true", { products: rows })).json<ImportPreview>();
    expect(preview).toMatchObject({ created: 0, updated: 3, errors: [] });
    expect(preview.rows.map((r) => r.action)).toEqual(["update", "update", "update"]);

    const result = (await manager.post("/api/products/import", { products: rows })).json<ImportResult>();
    expect(result).toEqual({ created: 0, updated: 3, skipped: 0, errors: [], import_id: expect.any(String) });
    for (const [i, code] of codes.entries()) {
      const now = (await lookup(code)).json<Product>();
      expect(now).toMatchObject({ id: stored[i]?.id, barcode: code, quantity_on_hand: 9 });
    }
  });

  it("two forms of one GTIN in one file: the later row is reported as a duplicate", async () => {
    const code = upcA();
    const rows = [
      { barcode: code, product_name: "Pack", vendor: "Topps" },
      { barcode: `0${code}`, product_name: "Pack", vendor: "Topps" },
    ];
    const result = (await manager.post("/api/products/import", { products: rows })).json<ImportResult>();
    expect(result).toMatchObject({ created: 1, updated: 0, skipped: 1 });
    expect(result.errors).toEqual([`Row 3: Duplicate barcode '0${code}' (already in row 2; only the first is imported)`]);
  });

  it("a new form of a GTIN another import created meanwhile updates it", async () => {
    const code = upcA();
    const first = manager.post("/api/products/import", { products: [{ barcode: code, product_name: "One", vendor: "Topps" }] });
    const second = manager.post("/api/products/import", {
      products: [{ barcode: `0${code}`, product_name: "One", vendor: "Topps", quantity_on_hand: "4" }],
    });
    const results = (await Promise.all([first, second])).map((r) => r.json<ImportResult>());
    expect(results.every((r) => r.errors.length === 0)).toBe(true);
    const all = rowsOf<{ n: number }>(
      await t.app.db.execute(sql`select count(*)::int as n from products where barcode_key = ${gtinKey(code)}`),
    );
    expect(all[0]?.n).toBe(1);
  });
});

describe("the OpenAPI description", () => {
  it("states how barcodes are compared on lookup, create, edit and import", () => {
    const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, { description?: string }>> };
    for (const [path, method] of [
      ["/api/products/barcode/{barcode}", "get"],
      ["/api/products", "post"],
      ["/api/products/{id}", "put"],
    ] as const) {
      expect(spec.paths[path]?.[method]?.description).toContain("Barcodes are compared as GTINs");
    }
    expect(spec.paths["/api/products/import"]?.post?.description).toContain("else by GTIN");
  });
});

describe("gtin_key() in SQL", () => {
  it("agrees with the contract's gtinKey()", async () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const valid = (n: number) => digits(n - 1, n - 1).map((b) => `${b}${gs1CheckDigit(b)}`);
    const code = fc.oneof(digits(0, 16), valid(8), valid(12), valid(13), valid(14), fc.string({ maxLength: 16 }), fc.constant("04252614"));
    await fc.assert(
      fc.asyncProperty(fc.array(code, { minLength: 1, maxLength: 200 }), async (codes) => {
        const result = await t.app.db.execute(
          sql`select gtin_key(c) as key from jsonb_array_elements_text(${JSON.stringify(codes)}::jsonb) with ordinality as x(c, n) order by n`,
        );
        expect(rowsOf<{ key: string }>(result).map((r) => r.key)).toEqual(codes.map(gtinKey));
      }),
      { numRuns: 40 },
    );
  });
});

/** The migrations folder, and a copy of it holding only the migrations before `tag`. */
function migrationsBefore(tag: string): { all: string; before: string; cleanUp(): void } {
  const all = fileURLToPath(new URL("../../db/migrations", import.meta.url));
  const before = mkdtempSync(join(tmpdir(), "blez-migrations-"));
  cpSync(all, before, { recursive: true });
  const journalPath = join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag.startsWith(tag));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { all, before, cleanUp: () => rmSync(before, { recursive: true, force: true }) };
}

/** An empty database (embedded, or a new PostgreSQL one beside DATABASE_URL's) on a pool. */
async function emptyDatabase(): Promise<{ pool: pg.Pool; close(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const embedded = await startEmbeddedDatabase();
    const pool = new pg.Pool(embedded.connection);
    return {
      pool,
      close: async () => {
        await pool.end();
        await embedded.stop();
      },
    };
  }
  const name = `blez_gtin_${Date.now()}_${randomInt(1e6)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  // The drop below (with force) ends the database's connections: one the pool is still closing
  // then reports "terminating connection due to administrator command", which is expected here.
  pool.on("error", () => {});
  return {
    pool,
    close: async () => {
      await pool.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

describe("migration 0005 on a catalogue that already holds two forms of one GTIN", () => {
  it("keeps both, gives the key to the older, reports the younger (NOTICE and a log line at start-up)", async () => {
    const folders = migrationsBefore("0005");
    const empty = await emptyDatabase();
    try {
      const client = await empty.pool.connect();
      const notices: string[] = [];
      client.on("notice", (n) => notices.push(n.message ?? ""));
      try {
        await migrate(drizzle({ client }), { migrationsFolder: folders.before });
        await client.query(`insert into products (barcode, product_name, vendor, revision) values
          ('820650853548', 'Older', 'Panini', take_revision()),
          ('0820650853548', 'Younger', 'Panini', take_revision()),
          ('SC-1', 'Label', 'Shop', take_revision())`);
        await migrate(drizzle({ client }), { migrationsFolder: folders.all });
      } finally {
        client.release();
      }
      expect(notices.some((n) => /\(barcode 0820650853548\) is the same GTIN as product \d+ \(barcode 820650853548\)/.test(n))).toBe(true);
      const rows = (await empty.pool.query("select barcode, barcode_key from products order by id")).rows;
      expect(rows).toEqual([
        { barcode: "820650853548", barcode_key: "00820650853548" },
        { barcode: "0820650853548", barcode_key: null },
        { barcode: "SC-1", barcode_key: "SC-1" },
      ]);

      // The app's lookup on that database: the exact barcode finds each, other forms the older;
      // start-up names the younger.
      const db = drizzle({ client: empty.pool }) as unknown as Db;
      const warned: string[] = [];
      expect(await reportSharedGtins(db, { warn: (_obj: unknown, msg?: string) => void warned.push(String(msg)) })).toBe(1);
      expect(warned[0]).toContain("(barcode 0820650853548) is the same GTIN as product");
      const nameOf = async (barcode: string) => JSON.parse((await findProductJsonByBarcode(db, barcode)) ?? "null")?.product_name;
      expect(await nameOf("820650853548")).toBe("Older");
      expect(await nameOf("0820650853548")).toBe("Younger");
      expect(await nameOf("00820650853548")).toBe("Older");
      // A tap leaves the younger one without a key; changing its barcode gives it one.
      await db.execute(sql`update products set quantity_on_hand = 3 where barcode = '0820650853548'`);
      expect(
        rowsOf<{ k: string | null }>(await db.execute(sql`select barcode_key as k from products where barcode = '0820650853548'`))[0]?.k,
      ).toBeNull();
      await db.execute(sql`update products set barcode = 'SC-2' where barcode = '0820650853548'`);
      expect(rowsOf<{ k: string }>(await db.execute(sql`select barcode_key as k from products where barcode = 'SC-2'`))[0]?.k).toBe("SC-2");
    } finally {
      await empty.close();
      folders.cleanUp();
    }
  });
});
