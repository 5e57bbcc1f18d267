import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/test-app.js";
import { EmbeddedMaintenance } from "./embedded-maintenance.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** 200 products, each changed three times: 600 old row versions, as 600 taps leave them. */
async function churnProducts() {
  const { pool } = t.database;
  await pool.query(`
    insert into products (barcode, product_name, vendor, release_year, quantity_on_hand, revision)
    select 'MAINT' || g, 'Maintenance card ' || g, 'Topps', 2024, 5, take_revision() from generate_series(1, 200) g
`);
  for (let i = 0; i < 3; i++) {
    await pool.query(`update products set quantity_on_hand = quantity_on_hand + 1, revision = take_revision() where barcode like 'MAINT%'`);
  }
}

async function productStats() {
  await t.database.pool.query("select pg_stat_force_next_flush()");
  const { rows } = await t.database.pool.query<{ dead: string; vacuums: string }>(
    `select n_dead_tup as dead, vacuum_count as vacuums from pg_stat_user_tables where relname = 'products'`,
  );
  return { dead: Number(rows[0]?.dead), vacuums: Number(rows[0]?.vacuums) };
}

describe("the embedded database's maintenance (PGlite runs no autovacuum)", () => {
  it("waits while requests come in, then vacuums the tables with old row versions; on PostgreSQL, leaves it to autovacuum", async () => {
    await churnProducts();
    let lastRequestAt = Date.now();
    const maintenance = new EmbeddedMaintenance(t.database, t.app.log, () => lastRequestAt, { everyMs: 3_600_000, quietMs: 1_000 });
    try {
      // A request a moment ago: nothing is done.
      expect(await maintenance.runOnce()).toEqual([]);
      if (t.database.kind === "pglite") expect(await productStats()).toMatchObject({ dead: 600, vacuums: 0 });
      lastRequestAt = Date.now() - 5_000;
      // The app's own background work (webhook poll, reports, imports) may hold the one connection
      // at that instant: maintenance then waits for another moment, as it does in a shop.
      let done = await maintenance.runOnce();
      for (let i = 0; i < 50 && t.database.kind === "pglite" && done.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        done = await maintenance.runOnce();
      }
      if (t.database.kind === "postgres") {
        expect(done).toEqual([]);
        return;
      }
      expect(done).toContain("VACUUM products");
      expect(await productStats()).toMatchObject({ dead: 0, vacuums: 1 });
      // Done once: not due again until new changes.
      expect(await maintenance.runOnce()).not.toContain("VACUUM products");
    } finally {
      await maintenance.close();
    }
  });

  it("is the app's own, started with it on the embedded database only", () => {
    expect(t.app.embeddedMaintenance).toBeInstanceOf(EmbeddedMaintenance);
  });
});
