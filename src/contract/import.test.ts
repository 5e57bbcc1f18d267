import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkImportRow, type ImportRowInput } from "./import.js";
import { createProductBodySchema } from "./products.js";

/**
 * The product's CSV row rules, written out independently of `checkImportRow`, plus the
 * server's limits (barcode at most 64 printable characters, names at most 200, stock an
 * integer below 1,000,000,000):
 * - barcode, product_name and vendor present and non-blank: "Row N: Missing required field 'X'"
 * - barcode at least 3 characters: "Row N: Barcode too short"
 * - quantity_on_hand a number of at least 0 (a whole one, as the server stores whole units):
 *   "Row N: Invalid quantity (must be 0 or positive number)"
 * - release_year between 1900 and 2030: "Row N: Invalid release year (must be between 1900-2030)"
 * - is_active one of true, false, 1, 0, yes, no: "Row N: Invalid is_active value (use: true/false, 1/0, yes/no)"
 * On import: values are trimmed; empty release_year is null; missing quantity is 0; is_active is
 * true when empty or one of true, 1, yes, on.
 */
function specCheck(input: ImportRowInput, index: number) {
  const n = index + 2;
  const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v).trim());
  const [barcode, name, vendor] = [cell(input.barcode), cell(input.product_name), cell(input.vendor)];
  const [year, quantity, active] = [cell(input.release_year), cell(input.quantity_on_hand), cell(input.is_active).toLowerCase()];
  const errors: string[] = [];
  for (const [field, value] of [
    ["barcode", barcode],
    ["product_name", name],
    ["vendor", vendor],
  ]) {
    if (value === "") errors.push(`Row ${n}: Missing required field '${field}'`);
  }
  if (barcode !== "" && barcode.length < 3) errors.push(`Row ${n}: Barcode too short`);
  if (barcode.length > 64) errors.push(`Row ${n}: Barcode too long (at most 64 characters)`);
  if (/\p{Cc}/u.test(barcode)) errors.push(`Row ${n}: Barcode must be printable text`);
  if (name.length > 200) errors.push(`Row ${n}: Product name too long (at most 200 characters)`);
  if (vendor.length > 200) errors.push(`Row ${n}: Vendor too long (at most 200 characters)`);
  const isDecimalInteger = (t: string) => /^[+-]?[0-9]+$/.test(t);
  const q = Number(quantity);
  if (quantity !== "" && !(isDecimalInteger(quantity) && !quantity.startsWith("-") && q >= 0 && q < 1_000_000_000)) {
    errors.push(`Row ${n}: Invalid quantity (must be 0 or positive number)`);
  }
  const y = Number(year);
  if (year !== "" && !(isDecimalInteger(year) && y >= 1900 && y <= 2030)) {
    errors.push(`Row ${n}: Invalid release year (must be between 1900-2030)`);
  }
  if (active !== "" && !["true", "false", "1", "0", "yes", "no"].includes(active)) {
    errors.push(`Row ${n}: Invalid is_active value (use: true/false, 1/0, yes/no)`);
  }
  const row = {
    barcode,
    product_name: name,
    vendor,
    release_year: year === "" ? null : y,
    quantity_on_hand: quantity === "" ? 0 : q,
    is_active: active === "" || ["true", "1", "yes", "on"].includes(active),
  };
  return { errors, row };
}

const pad = fc.constantFrom("", " ", "  ", "\t", " \n");
const padded = (a: fc.Arbitrary<string>) => fc.tuple(pad, a, pad).map(([l, v, r]) => `${l}${v}${r}`);
const missing = fc.constantFrom(undefined, null, "", "   ");
const controlChar = fc.constantFrom("\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\u009f");

const text = (max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: padded(fc.string({ minLength: 1, maxLength: 12 })) },
    { weight: 2, arbitrary: missing },
    { weight: 1, arbitrary: fc.string({ minLength: max - 2, maxLength: max + 3 }) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 4 }), controlChar, fc.string({ maxLength: 4 })).map((p) => p.join("")) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 99_999 }) },
  );
const barcodeCell = fc.oneof(
  { weight: 3, arbitrary: padded(fc.stringMatching(/^[0-9A-Z-]{1,16}$/)) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
  { weight: 3, arbitrary: text(64) },
);
const numberCell = (lo: number, hi: number) =>
  fc.oneof(
    { weight: 2, arbitrary: missing },
    { weight: 3, arbitrary: fc.integer({ min: lo, max: hi }) },
    { weight: 3, arbitrary: padded(fc.integer({ min: lo, max: hi }).map(String)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "+5",
        "-0",
        "007",
        "1.5",
        "5.0",
        "1e3",
        "0x10",
        "abc",
        "12abc",
        " 2024 ",
        "١٢",
        "Infinity",
        "NaN",
        "999999999",
        "1000000000",
      ),
    },
    { weight: 1, arbitrary: fc.double({ noDefaultInfinity: false }) },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
const activeCell = fc.oneof(
  { weight: 2, arbitrary: missing },
  {
    weight: 4,
    arbitrary: padded(fc.constantFrom("true", "false", "1", "0", "yes", "no", "TRUE", "No", "Yes", "on", "off", "y", "t", "2")),
  },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer({ min: -1, max: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const rowArb = fc.record(
  {
    barcode: barcodeCell,
    product_name: text(200),
    vendor: text(200),
    release_year: numberCell(1890, 2040),
    quantity_on_hand: numberCell(-3, 1_000_000_005),
    is_active: activeCell,
  },
  { requiredKeys: [] },
);

/** Rows that are mostly valid, so that accepted rows are common and each rule is hit alone. */
const nearlyValidRowArb = fc.record(
  {
    barcode: fc.oneof({ weight: 5, arbitrary: padded(fc.stringMatching(/^[0-9A-Z]{3,20}$/)) }, { weight: 1, arbitrary: barcodeCell }),
    product_name: fc.oneof(
      { weight: 5, arbitrary: padded(fc.string({ minLength: 1, maxLength: 30 })) },
      { weight: 1, arbitrary: text(200) },
    ),
    vendor: fc.oneof({ weight: 5, arbitrary: fc.constantFrom("Topps", "Panini", " Upper Deck ") }, { weight: 1, arbitrary: text(200) }),
    release_year: fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 1900, max: 2030 }).map(String) },
      { weight: 1, arbitrary: numberCell(1890, 2040) },
    ),
    quantity_on_hand: fc.oneof({ weight: 5, arbitrary: fc.nat({ max: 500 }) }, { weight: 1, arbitrary: numberCell(-3, 1_000_000_005) }),
    is_active: fc.oneof({ weight: 5, arbitrary: fc.constantFrom("", "true", "0", "Yes") }, { weight: 1, arbitrary: activeCell }),
  },
  { requiredKeys: [] },
);
const anyRowArb = fc.oneof(rowArb, nearlyValidRowArb);

describe("checkImportRow against the spec's CSV rules", () => {
  it("accepts exactly the rows the rules accept, with the spec's messages in order", () => {
    fc.assert(
      fc.property(anyRowArb, fc.nat({ max: 100_000 }), (input, index) => {
        const expected = specCheck(input as ImportRowInput, index);
        const actual = checkImportRow(input as ImportRowInput, index);
        if (expected.errors.length === 0) {
          expect(actual).toEqual({ ok: true, row: expected.row });
        } else {
          expect(actual).toEqual({ ok: false, errors: expected.errors });
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("only accepts rows the products API accepts too (one set of rules)", () => {
    fc.assert(
      fc.property(anyRowArb, (input) => {
        const result = checkImportRow(input as ImportRowInput, 0);
        if (!result.ok) return;
        const { is_active: _active, ...body } = result.row;
        expect(createProductBodySchema.safeParse(body).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    [{ barcode: "ABC123", product_name: "Card", vendor: "Topps" }, null],
    [{ product_name: "Card", vendor: "Topps" }, ["Row 2: Missing required field 'barcode'"]],
    [{ barcode: "AB", product_name: " ", vendor: "Topps" }, ["Row 2: Missing required field 'product_name'", "Row 2: Barcode too short"]],
    [
      { barcode: "ABC", product_name: "x", vendor: "y", quantity_on_hand: "-1" },
      ["Row 2: Invalid quantity (must be 0 or positive number)"],
    ],
    [{ barcode: "ABC", product_name: "x", vendor: "y", release_year: "2031" }, ["Row 2: Invalid release year (must be between 1900-2030)"]],
    [
      { barcode: "ABC", product_name: "x", vendor: "y", is_active: "on" },
      ["Row 2: Invalid is_active value (use: true/false, 1/0, yes/no)"],
    ],
  ])("examples from the spec: %j", (input, errors) => {
    const result = checkImportRow(input, 0);
    expect(result.ok ? null : result.errors).toEqual(errors);
  });

  it("normalises like the spec's import", () => {
    expect(
      checkImportRow(
        { barcode: " 123 ", product_name: " Card ", vendor: " V ", release_year: " ", quantity_on_hand: "", is_active: "YES" },
        0,
      ),
    ).toEqual({
      ok: true,
      row: { barcode: "123", product_name: "Card", vendor: "V", release_year: null, quantity_on_hand: 0, is_active: true },
    });
    expect(checkImportRow({ barcode: "123", product_name: "C", vendor: "V", is_active: "0" }, 0)).toMatchObject({
      row: { is_active: false },
    });
  });
});
