import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportPreview, ImportResult } from "../../../contract/import.js";
import type { Product } from "../../../contract/products.js";
import { csvMessages, DETAIL_FIELDS, DETAIL_MESSAGES, MONEY_MAX_CENTS } from "../../../contract/rules.js";
import { productAudit, products } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode, recordEvents } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { compactProductJson } from "./compact-json.js";

/** The card details: price, cost, condition, grader and grade, set, number, location. */

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({ CURRENCY: "EUR" });
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
});
afterAll(async () => {
  await t?.close();
});

const SLAB = {
  price: 15000,
  cost: 9950,
  condition: null,
  grader: "PSA",
  grade: "10",
  set_name: "2023 Prizm",
  card_number: "#136",
  location: "Case 2",
} as const;
const NOTHING_SET = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, null]));

const auditOf = (id: number) => t.app.db.select().from(productAudit).where(eq(productAudit.productId, id)).orderBy(productAudit.id);
const lookup = async (barcode: string) => (await manager.get(`/api/products/barcode/${encodeURIComponent(barcode)}`)).json<Product>();
const importRows = (rows: unknown[], dryRun = false) =>
  manager.post(`/api/products/import${dryRun ? "?dry_run=true" : ""}`, { products: rows });

describe("card details on create and edit", () => {
  it("creates a graded slab with every detail, shows them in the CREATE audit and the event", async () => {
    const rec = recordEvents(t.app);
    const p = await manager.create({ ...SLAB, condition: "Near Mint" });
    rec.stop();
    expect(p).toMatchObject({ ...SLAB, condition: "Near Mint" });
    expect(await lookup(p.barcode)).toMatchObject({ ...SLAB, condition: "Near Mint" });
    const [created] = await auditOf(p.id);
    expect(created?.newValues).toMatchObject({ ...SLAB, condition: "Near Mint", product_name: "Test Card" });
    expect(rec.events[0]?.data.product).toEqual(p);
  });

  it("leaves details that are not sent null, and keeps them out of the CREATE audit", async () => {
    const p = await manager.create();
    expect(p).toMatchObject(NOTHING_SET);
    const [created] = await auditOf(p.id);
    expect(Object.keys(created?.newValues ?? {}).sort()).toEqual(
      ["barcode", "is_active", "product_name", "quantity_on_hand", "release_year", "vendor"].sort(),
    );
  });

  it("trims text details and stores an empty one as not set", async () => {
    const p = await manager.create({ set_name: "  Chrome  ", card_number: "", location: "   ", grade: " 9.5 " });
    expect(p).toMatchObject({ set_name: "Chrome", card_number: null, location: null, grade: "9.5" });
  });

  it.each([
    ["price", -1, DETAIL_MESSAGES.price],
    ["price", 12.5, DETAIL_MESSAGES.price],
    ["price", "12.50", DETAIL_MESSAGES.price],
    ["price", MONEY_MAX_CENTS + 1, DETAIL_MESSAGES.price],
    ["cost", -100, DETAIL_MESSAGES.cost],
    ["condition", "Mint", DETAIL_MESSAGES.condition],
    ["grader", "PSA 10", DETAIL_MESSAGES.grader],
    ["grade", "x".repeat(21), DETAIL_MESSAGES.grade],
    ["set_name", "x".repeat(201), DETAIL_MESSAGES.setName],
    ["card_number", "x".repeat(51), DETAIL_MESSAGES.cardNumber],
    ["location", "x".repeat(101), DETAIL_MESSAGES.location],
    ["location", "Bin\u0007 4", DETAIL_MESSAGES.location],
  ])("refuses %s = %j on create and edit (400) with its message, changing nothing", async (field, value, message) => {
    const barcode = newBarcode();
    const created = await manager.post("/api/products", { barcode, product_name: "Card", vendor: "Topps", [field]: value });
    expect(created.statusCode).toBe(400);
    expect(created.json().error).toBe(message);
    expect(await t.app.db.select().from(products).where(eq(products.barcode, barcode))).toEqual([]);
    const p = await manager.create(SLAB);
    const edited = await manager.put(`/api/products/${p.id}`, { [field]: value });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error).toBe(message);
    expect(await lookup(p.barcode)).toEqual(p);
  });

  it("accepts the limits: price 0 and the largest amount, every condition and grader", async () => {
    expect(await manager.create({ price: 0, cost: MONEY_MAX_CENTS })).toMatchObject({ price: 0, cost: MONEY_MAX_CENTS });
    for (const condition of ["Near Mint", "Lightly Played", "Moderately Played", "Heavily Played", "Damaged", "Sealed"]) {
      expect(await manager.create({ condition })).toMatchObject({ condition });
    }
    for (const grader of ["PSA", "BGS", "CGC", "SGC", "Other"]) {
      expect(await manager.create({ grader, grade: "Authentic" })).toMatchObject({ grader, grade: "Authentic" });
    }
  });

  it("edits details with their old and new values in the audit; null and empty text clear them", async () => {
    const p = await manager.create(SLAB);
    const res = await inventory.put(`/api/products/${p.id}`, { price: 17500, location: "Binder 1", version: p.version });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...SLAB, price: 17500, location: "Binder 1", version: p.version + 1 });
    const cleared = await inventory.put(`/api/products/${p.id}`, { price: null, cost: null, grader: null, grade: "", set_name: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ price: null, cost: null, grader: null, grade: null, set_name: null, card_number: "#136" });
    const [, edit, clear] = await auditOf(p.id);
    expect(edit).toMatchObject({
      action: "UPDATE",
      changedFields: ["price", "location"],
      oldValues: { price: 15000, location: "Case 2" },
      newValues: { price: 17500, location: "Binder 1" },
    });
    expect(clear).toMatchObject({
      changedFields: ["price", "cost", "grader", "grade", "set_name"],
      oldValues: { price: 17500, cost: 9950, grader: "PSA", grade: "10", set_name: "2023 Prizm" },
      newValues: { price: null, cost: null, grader: null, grade: null, set_name: null },
    });
  });

  it("merges a stale price edit over sales, and refuses one when the price itself changed since", async () => {
    const p = await manager.create({ ...SLAB, quantity_on_hand: 5 });
    await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 });
    const merged = await manager.put(`/api/products/${p.id}`, { price: 16000, version: p.version });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toMatchObject({ price: 16000, quantity_on_hand: 4 });
    const stale = await inventory.put(`/api/products/${p.id}`, { price: 14000, version: p.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ fields: ["price"], product: { price: 16000 } });
  });

  it("carries the details in the list, the catch-up and a stock change's answer", async () => {
    const p = await manager.create(SLAB);
    const list = (await streamer.get("/api/products")).json<Product[]>();
    expect(list.find((x) => x.id === p.id)).toEqual(p);
    const since = (await streamer.get(`/api/products?since=${p.revision - 1}`)).json<{ products: Product[] }>();
    expect(since.products.find((x) => x.id === p.id)).toEqual(p);
    const sold = await streamer.put(`/api/products/${p.id}/quantity`, { quantity_change: -1 });
    expect(sold.json()).toMatchObject({ ...SLAB, quantity_on_hand: p.quantity_on_hand - 1 });
  });
});

describe("POST /api/products/shop-code", () => {
  it("hands out SC- codes never handed out before, skipping one a product already has", async () => {
    const first = (await inventory.post("/api/products/shop-code")).json<{ barcode: string }>().barcode;
    expect(first).toMatch(/^SC-\d{6,}$/);
    const next = Number(first.slice(3)) + 1;
    const typedByHand = `SC-${String(next).padStart(6, "0")}`;
    await manager.create({ barcode: typedByHand });
    const codes = await Promise.all([1, 2, 3, 4].map(async () => (await manager.post("/api/products/shop-code")).json().barcode));
    expect(new Set([first, typedByHand, ...codes]).size).toBe(6);
    const p = await manager.create({ barcode: codes[0] });
    expect(await lookup(codes[0])).toMatchObject({ id: p.id });
  });

  it("is refused to a streamer (403) and to a signed-out caller (401)", async () => {
    expect((await streamer.post("/api/products/shop-code")).statusCode).toBe(403);
    expect((await t.app.inject({ method: "POST", url: "/api/products/shop-code" })).statusCode).toBe(401);
  });
});

describe("CSV import of card details", () => {
  const specRow = (barcode: string, extra: Record<string, string> = {}) => ({
    barcode,
    product_name: "Wembanyama Silver",
    vendor: "Panini",
    release_year: "2023",
    quantity_on_hand: "1",
    is_active: "true",
    ...extra,
  });
  const detailCells = {
    price: "150.00",
    cost: "$99.50",
    condition: "near mint",
    grader: "psa",
    grade: "10",
    set_name: "2023 Prizm",
    card_number: "#136",
    location: "Case 2",
  };

  it("creates products with the detail columns (amounts as 12.50, names in any case)", async () => {
    const barcode = newBarcode("CSV");
    const res = await importRows([specRow(barcode, detailCells)]);
    expect(res.json<ImportResult>()).toEqual({ created: 1, updated: 0, skipped: 0, errors: [], import_id: expect.any(String) });
    expect(await lookup(barcode)).toMatchObject({ ...SLAB, condition: "Near Mint", cost: 9950 });
    const [created] = await auditOf((await lookup(barcode)).id);
    expect(created?.newValues).toEqual({
      barcode,
      product_name: "Wembanyama Silver",
      vendor: "Panini",
      release_year: 2023,
      quantity_on_hand: 1,
      is_active: true,
      ...SLAB,
      condition: "Near Mint",
      cost: 9950,
    });
    // Without details: the spec's fields alone, as a product created by hand.
    const plain = newBarcode("CSV");
    await importRows([specRow(plain, { release_year: "" })]);
    const [plainCreated] = await auditOf((await lookup(plain)).id);
    expect(plainCreated?.newValues).toEqual({
      barcode: plain,
      product_name: "Wembanyama Silver",
      vendor: "Panini",
      release_year: null,
      quantity_on_hand: 1,
      is_active: true,
    });
  });

  it("leaves the details of a product alone when the file has only the spec's columns", async () => {
    const p = await manager.create({
      ...SLAB,
      vendor: "Panini",
      product_name: "Wembanyama Silver",
      release_year: 2023,
      quantity_on_hand: 1,
    });
    const same = await importRows([specRow(p.barcode)]);
    expect(same.json<ImportResult>()).toEqual({ created: 0, updated: 0, skipped: 1, errors: [], import_id: expect.any(String) });
    const res = await importRows([specRow(p.barcode, { vendor: "Topps" })]);
    expect(res.json<ImportResult>()).toEqual({ created: 0, updated: 1, skipped: 0, errors: [], import_id: expect.any(String) });
    expect(await lookup(p.barcode)).toMatchObject({ ...SLAB, vendor: "Topps" });
    expect((await auditOf(p.id)).at(-1)).toMatchObject({ changedFields: ["vendor"], oldValues: { vendor: "Panini" } });
  });

  it("updates and clears details from their columns (an empty cell clears), audited old and new", async () => {
    const p = await manager.create({
      ...SLAB,
      vendor: "Panini",
      product_name: "Wembanyama Silver",
      release_year: 2023,
      quantity_on_hand: 1,
    });
    const preview = await importRows([specRow(p.barcode, { price: "160", location: "", grade: "10" })], true);
    expect(preview.json<ImportPreview>().rows[0]).toMatchObject({
      action: "update",
      changes: { price: [15000, 16000], location: ["Case 2", null] },
    });
    const res = await importRows([specRow(p.barcode, { price: "160", location: "", grade: "10" })]);
    expect(res.json<ImportResult>()).toEqual({ created: 0, updated: 1, skipped: 0, errors: [], import_id: expect.any(String) });
    expect(await lookup(p.barcode)).toMatchObject({ ...SLAB, price: 16000, location: null });
    expect((await auditOf(p.id)).at(-1)).toMatchObject({
      changedFields: ["price", "location"],
      oldValues: { price: 15000, location: "Case 2" },
      newValues: { price: 16000, location: null },
    });
  });

  it("reports invalid details in the spec's row style and imports the valid rows", async () => {
    const good = newBarcode("CSV");
    const rows = [
      specRow(newBarcode("CSV"), { price: "-1" }),
      specRow(newBarcode("CSV"), { cost: "12.505" }),
      specRow(newBarcode("CSV"), { condition: "Mint" }),
      specRow(newBarcode("CSV"), { grader: "Beckett" }),
      specRow(newBarcode("CSV"), { location: "x".repeat(101) }),
      specRow(good, { price: "0" }),
    ];
    const res = await importRows(rows);
    expect(res.json<ImportResult>()).toEqual({
      import_id: expect.any(String),
      created: 1,
      updated: 0,
      skipped: 5,
      errors: [
        csvMessages.price(2),
        csvMessages.cost(3),
        csvMessages.condition(4),
        csvMessages.grader(5),
        csvMessages.tooLong(6, "Location", 100),
      ],
    });
    expect(csvMessages.price(2)).toBe("Row 2: Invalid price (must be 0 or a positive amount)");
    expect(await lookup(good)).toMatchObject({ price: 0 });
  });
});

describe("a product's JSON from the database", () => {
  it("is the product the server answers an edit with: every field, odd characters and nulls alike, in lookups, catch-ups and taps", async () => {
    const odd = await manager.create({
      ...SLAB,
      condition: "Near Mint",
      product_name: 'Rookie "Auto" \\ 1/1\n\tline\u0001 ☃ é',
      vendor: "Panini </script>",
      reorder_point: 2,
    });
    const plain = await manager.create({ release_year: null });
    for (const p of [odd, plain]) {
      // Edits answer with the server's own presenter; lookups and catch-ups with the database's text.
      const edited = (await manager.put(`/api/products/${p.id}`, { vendor: `${p.vendor}!`, version: p.version })).json<Product>();
      expect(await lookup(p.barcode)).toEqual(edited);
      const sinceAnswer = await manager.get(`/api/products?since=${edited.revision - 1}`);
      expect(sinceAnswer.json<{ products: Product[] }>().products.find((x) => x.id === p.id)).toEqual(edited);
      // The catalogue mirror keeps the text as its values alone and gives back the very same text.
      const text = (await manager.get(`/api/products/barcode/${encodeURIComponent(p.barcode)}`)).body;
      expect(compactProductJson(text)).not.toBeNull();
      expect(sinceAnswer.body).toContain(text);
      // A tap's answer is built around product_json(), the same text as json.
      const tapped = await manager.put(`/api/products/${p.id}/quantity`, { quantity_change: 1 });
      expect(tapped.statusCode).toBe(200);
      expect(tapped.json<Product>()).toEqual(await lookup(p.barcode));
    }
    expect(await lookup(odd.barcode)).toMatchObject({ product_name: 'Rookie "Auto" \\ 1/1\n\tline\u0001 ☃ é', reorder_point: 2 });
  });
});
