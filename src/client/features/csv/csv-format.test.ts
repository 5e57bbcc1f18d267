import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeCell, unsafeCell } from "../../../contract/csv-cells";
import { importInputOf } from "../../../contract/import";
import type { Product } from "../../../contract/products";
import { CSV_COLUMNS, CSV_EXPORT_COLUMNS, CSV_TEMPLATE_COLUMNS, NO_DETAILS } from "../../../contract/rules";
import { exportCsv, exportFileName, productToRow, TEMPLATE_FILE_NAME, templateCsv, toCsv } from "./csv-format";
import { checkRows, parseCsvText } from "./csv-import";

function product(fields: Partial<Product>): Product {
  return {
    id: 1,
    barcode: "012345678905",
    product_name: "Box",
    vendor: "Topps",
    release_year: 2024,
    quantity_on_hand: 3,
    ...NO_DETAILS,
    photos: [],
    is_active: true,
    version: 1,
    revision: 1,
    created_at: "2026-01-02T03:04:05.000Z",
    updated_at: "2026-02-03T04:05:06.000Z",
    ...fields,
  };
}

describe("safeCell", () => {
  it("prefixes cells starting with =, +, - or @ with a single quote", () => {
    expect(safeCell('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(safeCell("+1")).toBe("'+1");
    expect(safeCell("-2")).toBe("'-2");
    expect(safeCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(safeCell("Topps")).toBe("Topps");
    expect(safeCell("a=b")).toBe("a=b");
    expect(safeCell("")).toBe("");
  });

  it("is undone exactly by unsafeCell, for any text", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(unsafeCell(safeCell(s))).toBe(s);
        expect(/^[=+\-@]/.test(safeCell(s))).toBe(false);
      }),
    );
  });
});

describe("export", () => {
  const products = [
    product({ id: 1, barcode: "111", product_name: "=cmd|' /C calc'!A0", vendor: "Topps, Inc.", is_active: true }),
    product({ id: 2, barcode: "222", product_name: 'Line\nbreak "quoted"', vendor: "@vendor", release_year: null, is_active: false }),
    product({ id: 3, barcode: "-333", product_name: "Ünïcode ✓", vendor: "+Plus", quantity_on_hand: 0 }),
  ];

  it("writes the spec's columns with created_at and updated_at, formulas made safe", () => {
    const text = exportCsv(products, "complete");
    const [header, first] = text.split("\r\n");
    expect(header).toBe(CSV_EXPORT_COLUMNS.join(","));
    expect(first).toBe(`111,'=cmd|' /C calc'!A0,"Topps, Inc.",2024,3,true,2026-01-02T03:04:05.000Z,2026-02-03T04:05:06.000Z,,,,,,,,,,`);
    const slab = product({
      barcode: "444",
      price: 45000,
      cost: 30050,
      grader: "PSA",
      grade: "10",
      set_name: "Prizm",
      card_number: "136",
      location: "=Case 2",
    });
    expect(exportCsv([slab], "complete").split("\r\n")[1]).toMatch(/,450\.00,300\.50,,PSA,10,Prizm,136,'=Case 2,,$/);
  });

  it("writes the photo URLs, cover first, and an import of the file ignores them", () => {
    const photo = (id: number, hash: string) => ({
      id,
      url: `/api/media/${hash.repeat(64)}.webp`,
      thumbnail_url: `/api/media/${hash.repeat(63)}f.webp`,
      width: 1600,
      height: 1200,
    });
    const withPhotos = product({ barcode: "666", photos: [photo(7, "a"), photo(3, "b")] });
    const [row] = parseCsvText(exportCsv([withPhotos], "complete")).rows;
    expect(row?.photos).toBe(`${location.origin}/api/media/${"a".repeat(64)}.webp ${location.origin}/api/media/${"b".repeat(64)}.webp`);
    const { valid, errors } = checkRows(parseCsvText(exportCsv([withPhotos], "complete")).rows);
    expect(errors).toEqual([]);
    expect(valid[0]).not.toHaveProperty("photos");
  });

  it("active inventory leaves disabled products out", () => {
    expect(parseCsvText(exportCsv(products, "active")).rows.map((r) => r.barcode)).toEqual(["111", "-333"]);
    expect(parseCsvText(exportCsv(products, "complete")).rows.map((r) => r.barcode)).toEqual(["111", "222", "-333"]);
  });

  it("round-trips: parsing the export gives the same rows", () => {
    const parsed = parseCsvText(exportCsv(products, "complete"));
    expect(parsed.fields).toEqual([...CSV_EXPORT_COLUMNS]);
    expect(parsed.rows).toEqual(products.map((p) => productToRow(p)));
    // And they import as the same products.
    const { valid, errors } = checkRows(parsed.rows);
    expect(errors).toEqual([]);
    expect(valid.map((r) => [r.barcode, r.product_name, r.vendor, r.release_year, r.quantity_on_hand, r.is_active])).toEqual(
      products.map((p) => [p.barcode, p.product_name, p.vendor, p.release_year, p.quantity_on_hand, p.is_active]),
    );
  });

  it("round-trips every card detail: export, check, and the rows the server gets", () => {
    const slab = product({
      price: 45000,
      cost: 0,
      condition: "Near Mint",
      grader: "BGS",
      grade: "9.5",
      set_name: "Chrome",
      card_number: "RC-7",
      location: "Binder 3",
    });
    const [row] = checkRows(parseCsvText(exportCsv([slab, product({ barcode: "555" })], "complete")).rows).valid;
    expect(row).toMatchObject({
      price: 45000,
      cost: 0,
      condition: "Near Mint",
      grader: "BGS",
      grade: "9.5",
      set_name: "Chrome",
      card_number: "RC-7",
      location: "Binder 3",
    });
    expect(row && importInputOf(row)).toMatchObject({ price: "450.00", cost: "0.00" });
  });

  it("round-trips any text in any cell", () => {
    const cellText = fc.string({ unit: "grapheme", maxLength: 30 });
    const row = fc.record(
      Object.fromEntries(CSV_COLUMNS.map((c) => [c, cellText])) as Record<(typeof CSV_COLUMNS)[number], typeof cellText>,
    );
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        // A row of only blank cells is skipped as an empty line by design.
        const kept = rows.filter((r) => Object.values(r).some((v) => v.trim() !== ""));
        expect(parseCsvText(toCsv(CSV_COLUMNS, kept)).rows).toEqual(kept);
      }),
    );
  });

  it("names files inventory-active/complete-YYYY-MM-DD.csv; the template has the header and an example", () => {
    const day = new Date(2026, 0, 9, 23, 59);
    expect(exportFileName("active", day)).toBe("inventory-active-2026-01-09.csv");
    expect(exportFileName("complete", day)).toBe("inventory-complete-2026-01-09.csv");
    expect(TEMPLATE_FILE_NAME).toBe("inventory-template.csv");
    const template = parseCsvText(templateCsv());
    expect(template.fields).toEqual([...CSV_TEMPLATE_COLUMNS]);
    expect(template.rows).toHaveLength(2);
    expect(checkRows(template.rows).errors).toEqual([]);
  });
});
