import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductAuditEntry } from "../../../contract/audit.js";
import type { ImportPreview, ImportResult } from "../../../contract/import.js";
import type { ImportSummary, ImportUndoResult } from "../../../contract/imports.js";
import type { Product } from "../../../contract/products.js";
import { productAudit, quantityAudit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let streamerApi: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  streamerApi = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

/** A product as the export writes it (the spec's columns, updated_at, the card details). */
const exported = (p: Product) => ({
  barcode: p.barcode,
  product_name: p.product_name,
  vendor: p.vendor,
  release_year: p.release_year === null ? "" : String(p.release_year),
  quantity_on_hand: String(p.quantity_on_hand),
  is_active: String(p.is_active),
  price: p.price === null ? "" : (p.price / 100).toFixed(2),
  location: p.location ?? "",
  updated_at: p.updated_at,
});

const sell = async (id: number, by = streamerApi) => {
  const res = await by.put(`/api/products/${id}/quantity`, { quantity_change: -1, reason: "Sold" });
  expect(res.statusCode).toBe(200);
  return res.json<Product>();
};
const product = async (id: number) => (await manager.get("/api/products")).json<Product[]>().find((p) => p.id === id);
const importRows = async (rows: unknown[]) => {
  const res = await manager.post("/api/products/import", { products: rows });
  expect(res.statusCode).toBe(200);
  return res.json<ImportResult>();
};

describe("an import row with the export's updated_at merges", () => {
  it("a daily price update from an earlier export keeps the sales made since", async () => {
    const cards = await Promise.all(Array.from({ length: 10 }, (_, i) => manager.create({ quantity_on_hand: 10, price: 100 + i })));
    const file = cards.map(exported);
    const sold = cards.slice(0, 3);
    for (const p of sold) await sell(p.id);
    await sell(sold[0]?.id ?? 0);

    const result = await importRows(file.map((row) => ({ ...row, price: "25.00" })));
    expect(result).toMatchObject({ created: 0, updated: 10, skipped: 0, errors: [] });
    const after = (await manager.get("/api/products")).json<Product[]>();
    for (const p of cards) {
      const now = after.find((a) => a.id === p.id);
      const sales = p.id === sold[0]?.id ? 2 : sold.some((s) => s.id === p.id) ? 1 : 0;
      expect(now).toMatchObject({ price: 2500, quantity_on_hand: 10 - sales });
    }
    // No row writes a field whose value did not change: the audit names the price alone.
    const audit = await t.app.db
      .select()
      .from(productAudit)
      .where(and(eq(productAudit.productId, sold[1]?.id ?? 0), eq(productAudit.action, "UPDATE")));
    expect(audit.map((a) => a.changedFields)).toEqual([["price"]]);
  });

  it("a field the file changes that someone else changed since is left alone and reported; the row's other fields apply", async () => {
    const card = await manager.create({ quantity_on_hand: 10, price: 500, location: "Case 1" });
    const row = exported(card);
    await sell(card.id);
    const edit = await manager.put(`/api/products/${card.id}`, { location: "Case 2" });
    expect(edit.statusCode).toBe(200);

    const result = await importRows([{ ...row, quantity_on_hand: "12", price: "6.00", location: "Case 1" }]);
    expect(result.errors).toEqual(["Row 2: quantity_on_hand changed since the export (file 12, now 9): left as it is"]);
    expect(result).toMatchObject({ updated: 1, skipped: 0 });
    // The location the file left as exported does not undo the edit made since.
    expect(await product(card.id)).toMatchObject({ quantity_on_hand: 9, price: 600, location: "Case 2" });
  });

  it("a price someone changed since the export is reported when the file changes it too, with amounts", async () => {
    const card = await manager.create({ quantity_on_hand: 1, price: 500 });
    const row = exported(card);
    await manager.put(`/api/products/${card.id}`, { price: 700 });
    const result = await importRows([{ ...row, price: "8.00" }]);
    expect(result.errors).toEqual(["Row 2: price changed since the export (file 8.00, now 7.00): left as it is"]);
    expect(result).toMatchObject({ updated: 0, skipped: 1 });
    expect(await product(card.id)).toMatchObject({ price: 700 });
  });

  it("rows without updated_at behave as the spec says: the file's stock is written", async () => {
    const card = await manager.create({ quantity_on_hand: 10 });
    await sell(card.id);
    const { updated_at: _, ...row } = exported(card);
    const result = await importRows([{ ...row, quantity_on_hand: "10" }]);
    expect(result).toMatchObject({ updated: 1, errors: [] });
    expect(await product(card.id)).toMatchObject({ quantity_on_hand: 10 });
  });

  it("reports an updated_at that is not a date", async () => {
    const result = await importRows([{ barcode: newBarcode(), product_name: "X", vendor: "Y", updated_at: "yesterday-ish" }]);
    expect(result.errors).toEqual(["Row 2: Invalid updated_at (leave the export's value, or empty the cell)"]);
  });
});

describe("a dry run of rows with updated_at", () => {
  it("previews what the import then does: the same rows, actions, changes and errors", async () => {
    const [sold, both, edited, same] = await Promise.all(
      [0, 1, 2, 3].map(() => manager.create({ quantity_on_hand: 10, price: 500, location: "Case 1" })),
    );
    if (!sold || !both || !edited || !same) throw new Error("products not created");
    const file = [sold, both, edited, same].map(exported);
    // Since the export: sales on three of them, and a new price on one.
    await sell(sold.id);
    await sell(both.id);
    await sell(same.id);
    expect((await manager.put(`/api/products/${edited.id}`, { price: 700 })).statusCode).toBe(200);
    const fresh = newBarcode("NEW");
    const rows = [
      // A new price; the stock left as exported keeps the sale.
      { ...file[0], price: "6.00" },
      // The stock changed in the file and since: left as it is and reported; the location applies.
      { ...file[1], quantity_on_hand: "12", location: "Case 2" },
      // The price changed in the file and since: reported, nothing else to do.
      { ...file[2], price: "8.00" },
      // As exported: the sale made since is not a change the file makes.
      file[3],
      { barcode: fresh, product_name: "New One", vendor: "Topps", quantity_on_hand: "4", updated_at: "" },
      { ...file[0], price: "9.00" },
    ];

    const res = await manager.post("/api/products/import?dry_run=true", { products: rows });
    expect(res.statusCode, res.body).toBe(200);
    const { rows: previewed, ...summary } = res.json<ImportPreview>();
    const errors = [
      "Row 3: quantity_on_hand changed since the export (file 12, now 9): left as it is",
      "Row 4: price changed since the export (file 8.00, now 7.00): left as it is",
      `Row 7: Duplicate barcode '${sold.barcode}' (already in row 2; only the first is imported)`,
    ];
    expect(summary).toEqual({ created: 1, updated: 2, skipped: 3, errors });
    expect(previewed).toEqual([
      { row: 2, barcode: sold.barcode, action: "update", changes: { price: [500, 600] }, error: null },
      { row: 3, barcode: both.barcode, action: "update", changes: { location: ["Case 1", "Case 2"] }, error: errors[0] },
      { row: 4, barcode: edited.barcode, action: "unchanged", changes: {}, error: errors[1] },
      { row: 5, barcode: same.barcode, action: "unchanged", changes: {}, error: null },
      {
        row: 6,
        barcode: fresh,
        action: "create",
        changes: {
          barcode: [null, fresh],
          product_name: [null, "New One"],
          vendor: [null, "Topps"],
          quantity_on_hand: [null, 4],
          is_active: [null, true],
        },
        error: null,
      },
      { row: 7, barcode: sold.barcode, action: "invalid", changes: {}, error: errors[2] },
    ]);

    // The import does exactly that: the same counts and errors, and each previewed change and no other.
    const result = await importRows(rows);
    expect(result).toEqual({ ...summary, import_id: expect.any(String) });
    const written = await t.app.db
      .select({ productId: productAudit.productId, fields: productAudit.changedFields })
      .from(productAudit)
      .where(and(eq(productAudit.importId, result.import_id ?? ""), eq(productAudit.action, "UPDATE")));
    // By product id on both sides: products made at once may take their ids in any order.
    const byId = (a: { productId: number | null }, b: { productId: number | null }) => (a.productId ?? 0) - (b.productId ?? 0);
    expect(written.sort(byId)).toEqual(
      [
        { productId: sold.id, fields: ["price"] },
        { productId: both.id, fields: ["location"] },
      ].sort(byId),
    );
    expect(await product(sold.id)).toMatchObject({ price: 600, quantity_on_hand: 9 });
    expect(await product(both.id)).toMatchObject({ quantity_on_hand: 9, location: "Case 2" });
    expect(await product(edited.id)).toMatchObject({ price: 700 });
    expect(await product(same.id)).toMatchObject({ quantity_on_hand: 9 });
  });
});

describe("undo an import", () => {
  it("restores a changed field, keeps one changed since (reported), disables an untouched new product, and is audited", async () => {
    const changed = await manager.create({ price: 100, location: "A" });
    const touched = await manager.create({ price: 100, quantity_on_hand: 5 });
    const fresh = newBarcode("NEW");
    const freshTouched = newBarcode("NEWT");
    const result = await importRows([
      { ...exported(changed), price: "2.00", location: "B" },
      { ...exported(touched), price: "2.00", quantity_on_hand: "8" },
      { barcode: fresh, product_name: "New One", vendor: "Topps", quantity_on_hand: "4" },
      { barcode: freshTouched, product_name: "New Two", vendor: "Topps", quantity_on_hand: "4" },
    ]);
    expect(result).toMatchObject({ created: 2, updated: 2, errors: [] });
    const importId = result.import_id ?? "";
    const list = (await manager.get("/api/products")).json<Product[]>();
    const newTouched = list.find((p) => p.barcode === freshTouched);
    const newFresh = list.find((p) => p.barcode === fresh);
    // Sales after the import: on an updated product's stock, and on a created product.
    await sell(touched.id);
    await sell(newTouched?.id ?? 0);

    // With a JSON body, as a client that always sends one does (the undo reads none).
    const undo = await manager.post(`/api/imports/${importId}/undo`, {});
    expect(undo.statusCode).toBe(200);
    const body = undo.json<ImportUndoResult>();
    expect(body).toMatchObject({ reverted: 2, disabled: 1 });
    expect(body.import.undone_at).not.toBeNull();
    expect(body.not_reverted).toEqual(
      expect.arrayContaining([
        {
          product_id: touched.id,
          barcode: touched.barcode,
          product_name: touched.product_name,
          reason: "Changed since the import (quantity_on_hand): left as it is",
        },
        {
          product_id: newTouched?.id,
          barcode: freshTouched,
          product_name: "New Two",
          reason: "Created by the import and changed since: left active",
        },
      ]),
    );
    expect(body.not_reverted).toHaveLength(2);
    expect(await product(changed.id)).toMatchObject({ price: 100, location: "A" });
    expect(await product(touched.id)).toMatchObject({ price: 100, quantity_on_hand: 7 });
    expect(await product(newFresh?.id ?? 0)).toMatchObject({ is_active: false });
    expect(await product(newTouched?.id ?? 0)).toMatchObject({ is_active: true, quantity_on_hand: 3 });

    // Audited as the undoing user's changes.
    const trail = (await manager.get(`/api/audit/product/${changed.id}`)).json<ProductAuditEntry[]>();
    expect(trail[0]).toMatchObject({
      action: "UPDATE",
      changed_fields: ["price", "location"],
      old_values: { price: 200, location: "B" },
      new_values: { price: 100, location: "A" },
    });
    expect((await manager.get(`/api/audit/product/${newFresh?.id}`)).json<ProductAuditEntry[]>()[0]).toMatchObject({ action: "DISABLE" });
    const undoneStock = await t.app.db.select().from(quantityAudit).where(eq(quantityAudit.productId, touched.id));
    expect(undoneStock.filter((q) => q.notes === "Import undone")).toHaveLength(0);

    const again = await manager.post(`/api/imports/${importId}/undo`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: "This import was already undone" });
    const summaries = (await manager.get("/api/imports")).json<ImportSummary[]>();
    expect(summaries.find((s) => s.id === importId)).toMatchObject({
      status: "done",
      created: 2,
      updated: 2,
      undone_by: expect.any(String),
    });
  });

  it("refuses unknown imports, and users who cannot manage products", async () => {
    expect((await manager.post("/api/imports/00000000-0000-4000-8000-000000000000/undo")).statusCode).toBe(404);
    expect((await streamerApi.get("/api/imports")).statusCode).toBe(403);
    expect((await streamerApi.post("/api/imports/00000000-0000-4000-8000-000000000000/undo")).statusCode).toBe(403);
  });
});
