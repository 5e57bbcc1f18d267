import { eq, inArray, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportResult } from "../../../contract/import.js";
import { productAudit, products, quantityAudit } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/**
 * Imports next to other writers, on PostgreSQL (PGlite runs one transaction at a time). A second
 * connection holds an uncommitted product with one of the import's new barcodes: the import then
 * waits in the middle of one batch's transaction, which makes the overlaps below certain, not lucky.
 */
describe.runIf(process.env.DATABASE_URL)("imports next to other writers (PostgreSQL)", () => {
  let t: TestApp;
  let manager: ReturnType<typeof caller>;
  let streamer: ReturnType<typeof caller>;
  let managerCookie: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    const m = await signedIn(t.app, "manager");
    manager = caller(t.app, m.cookie);
    managerCookie = m.cookie;
    streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const importOver = (rows: unknown[]) =>
    fetch(`${base}/api/products/import`, {
      method: "POST",
      headers: { cookie: managerCookie, "content-type": "application/json" },
      body: JSON.stringify({ products: rows }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as ImportResult }));

  const row = (barcode: string, vendor: string, quantity: number) => ({
    barcode,
    product_name: "Card",
    vendor,
    quantity_on_hand: quantity,
  });

  /** Opens a transaction on its own connection that holds an uncommitted product with `barcode`. */
  async function holdBarcode(barcode: string): Promise<pg.PoolClient> {
    const client = await t.database.pool?.connect();
    if (!client) throw new Error("no pool on PostgreSQL");
    await client.query("begin");
    await client.query(`insert into products (barcode, product_name, vendor, revision) values ($1, 'Held', 'Holder', take_revision())`, [
      barcode,
    ]);
    return client;
  }

  /**
   * Resolves once `count` statements of this test's database wait for a lock (pg_locks lists the
   * whole server's, and a wait for a transaction names no database: the waiting session does).
   * Other test files' waits must not count, or the tap can come before the import reached the
   * held barcode.
   */
  async function waiting(count: number): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const [r] = rowsOf<{ n: number }>(
        await t.app.db.execute(
          sql`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`,
        ),
      );
      if ((r?.n ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`fewer than ${count} statements ever waited for a lock`);
  }

  it("lets a tap on a product it updated commit while it runs, and keeps that tap's stock", async () => {
    const x = await manager.create({ vendor: "Topps", quantity_on_hand: 10 });
    const held = newBarcode("HOLD");
    const fresh = Array.from({ length: 5000 }, () => row(newBarcode("IMP"), "Leaf", 1));
    // x is in the first batch, the held barcode in the last: the tap comes while the import waits there.
    const rows = [
      { ...row(x.barcode, "Bowman", 10), product_name: x.product_name, release_year: "2024" },
      ...fresh,
      row(held, "Imported", 3),
    ];
    const holder = await holdBarcode(held);
    let finished = false;
    const importing = importOver(rows).finally(() => {
      finished = true;
    });
    try {
      await waiting(1);
      const tapped = await streamer.put(`/api/products/${x.id}/quantity`, { quantity_change: -1 });
      expect(tapped.statusCode).toBe(200);
      expect(finished).toBe(false);
      await holder.query("commit");
    } finally {
      holder.release();
    }
    const result = await importing;
    expect(result).toEqual({ status: 200, body: { created: 5000, updated: 2, skipped: 0, errors: [], import_id: expect.any(String) } });
    // The file did not change x's stock: the sale made during the import stays.
    const [after] = await t.app.db.select().from(products).where(eq(products.id, x.id));
    expect(after).toMatchObject({ vendor: "Bowman", quantityOnHand: 9, version: 3 });
    // The held barcode was created by the other transaction first: the import updated it, auditing what it replaced.
    const [heldRow] = await t.app.db.select().from(products).where(eq(products.barcode, held));
    expect(heldRow).toMatchObject({ vendor: "Imported", quantityOnHand: 3, productName: "Card" });
    const heldAudit = await t.app.db.select().from(productAudit).where(eq(productAudit.barcode, held));
    expect(heldAudit).toMatchObject([
      {
        action: "UPDATE",
        changedFields: ["product_name", "vendor", "quantity_on_hand"],
        oldValues: { product_name: "Held", vendor: "Holder", quantity_on_hand: 0 },
        newValues: { product_name: "Card", vendor: "Imported", quantity_on_hand: 3 },
        productVersion: 2,
      },
    ]);
  });

  it("lets two imports with overlapping new barcodes both succeed, each product created once with consistent audit", async () => {
    const held = `A0${newBarcode()}`;
    const overlap = [held, ...Array.from({ length: 300 }, () => `A1${newBarcode()}`)];
    const onlyA = Array.from({ length: 300 }, () => `A1${newBarcode()}`);
    const onlyB = Array.from({ length: 300 }, () => `A1${newBarcode()}`);
    const holder = await holdBarcode(held);
    const a = importOver([...onlyA, ...overlap].map((b) => row(b, "Vendor A", 3)));
    const b = importOver([...overlap, ...onlyB].map((b) => row(b, "Vendor B", 5)));
    try {
      // Both planned against a catalogue without the overlap and wait at its first barcode.
      await waiting(2);
      await holder.query("rollback");
    } finally {
      holder.release();
    }
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    // Each overlapping barcode is created by the import whose batch got there first and updated by the other.
    expect([ra.body.errors, rb.body.errors]).toEqual([[], []]);
    expect(ra.body.created + rb.body.created).toBe(901);
    expect(ra.body.updated + rb.body.updated).toBe(301);

    const all = [...overlap, ...onlyA, ...onlyB];
    const rows = await t.app.db.select().from(products).where(inArray(products.barcode, all));
    expect(rows).toHaveLength(all.length);
    const audits = await t.app.db.select().from(productAudit).where(inArray(productAudit.barcode, all)).orderBy(productAudit.id);
    const stock = await t.app.db.select().from(quantityAudit).where(inArray(quantityAudit.barcode, all));
    for (const p of rows) {
      const mine = audits.filter((x) => x.productId === p.id);
      expect(mine[0]?.action).toBe("CREATE");
      expect(mine.filter((x) => x.action === "CREATE")).toHaveLength(1);
      expect(mine.map((x) => x.productVersion)).toEqual(mine.map((_, i) => i + 1));
      expect(mine.at(-1)?.newValues).toMatchObject({ vendor: p.vendor, quantity_on_hand: p.quantityOnHand });
      const created = mine[0]?.newValues;
      if (mine.length === 2) expect(mine[1]?.oldValues).toEqual({ vendor: created?.vendor, quantity_on_hand: created?.quantity_on_hand });
      const changes = stock.filter((q) => q.productId === p.id).reduce((sum, q) => sum + q.quantityChange, 0);
      expect(changes).toBe(p.quantityOnHand);
    }
  });
});
