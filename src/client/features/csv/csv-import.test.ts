import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ImportRow } from "../../../contract/import";
import { CSV_COLUMNS } from "../../../contract/rules";
import { toCsv } from "./csv-format";
import { checkRows, errorSummary, isCsvFileName, parseCsvFile, parseCsvText, previewRows } from "./csv-import";

/**
 * The product's CSV row rules, stated independently of the code under test:
 * required barcode/product_name/vendor, barcode at least 3, quantity a whole number >= 0,
 * release year 1900-2030, is_active one of true/false/1/0/yes/no; values trimmed, blank year
 * null, blank quantity 0, is_active true when blank or true/1/yes/on.
 */
function oracle(row: Record<string, string>, n: number): { errors: string[]; row: ImportRow | null } {
  const t = (k: string) => (row[k] ?? "").trim();
  const errors: string[] = [];
  for (const f of ["barcode", "product_name", "vendor"]) if (!t(f)) errors.push(`Row ${n}: Missing required field '${f}'`);
  if (t("barcode") && t("barcode").length < 3) errors.push(`Row ${n}: Barcode too short`);
  const q = t("quantity_on_hand");
  if (q !== "" && !(/^\+?\d+$/.test(q) && Number(q) < 1e9)) errors.push(`Row ${n}: Invalid quantity (must be 0 or positive number)`);
  const y = t("release_year");
  if (y !== "" && !(/^[+-]?\d+$/.test(y) && Number(y) >= 1900 && Number(y) <= 2030)) {
    errors.push(`Row ${n}: Invalid release year (must be between 1900-2030)`);
  }
  const a = t("is_active").toLowerCase();
  if (a !== "" && !["true", "false", "1", "0", "yes", "no"].includes(a)) {
    errors.push(`Row ${n}: Invalid is_active value (use: true/false, 1/0, yes/no)`);
  }
  if (errors.length) return { errors, row: null };
  return {
    errors,
    row: {
      barcode: t("barcode"),
      product_name: t("product_name"),
      vendor: t("vendor"),
      release_year: y === "" ? null : Number(y),
      quantity_on_hand: q === "" ? 0 : Number(q),
      is_active: a === "" || ["true", "1", "yes", "on"].includes(a),
    },
  };
}

const pad = fc.constantFrom("", " ", "  ");
const padded = (arb: fc.Arbitrary<string>) => fc.tuple(pad, arb, pad).map(([a, v, b]) => `${a}${v}${b}`);
const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .&'-]{0,20}$/).map((s) => s.trim());
const cells = {
  barcode: padded(fc.oneof(fc.constant(""), fc.stringMatching(/^[0-9A-Z]{1,14}$/))),
  product_name: padded(fc.oneof(fc.constant(""), word)),
  vendor: padded(fc.oneof(fc.constant(""), word)),
  release_year: padded(
    fc.oneof(fc.constant(""), fc.integer({ min: 1850, max: 2100 }).map(String), fc.constantFrom("20x4", "1999.5", "abc")),
  ),
  quantity_on_hand: padded(
    fc.oneof(fc.constant(""), fc.integer({ min: -5, max: 100_000 }).map(String), fc.constantFrom("1.5", "ten", "-0", "+3", "1e3")),
  ),
  is_active: padded(fc.constantFrom("", "true", "FALSE", "1", "0", "yes", "No", "on", "maybe", "y")),
};

describe("CSV rows against the spec's rules", () => {
  it("checkRows over a parsed file gives exactly the spec's errors and normalised rows", () => {
    fc.assert(
      fc.property(fc.array(fc.record(cells), { minLength: 1, maxLength: 12 }), (rows) => {
        const kept = rows.filter((r) => Object.values(r).some((v) => v.trim() !== ""));
        const parsed = parseCsvText(toCsv(CSV_COLUMNS, kept)).rows;
        const got = checkRows(parsed);
        const want = kept.map((r, i) => oracle(r, i + 2));
        expect(got.errors).toEqual(want.flatMap((w) => w.errors));
        expect(got.valid).toEqual(want.flatMap((w) => (w.row ? [w.row] : [])));
      }),
      { numRuns: 300 },
    );
  });

  it("numbers rows from 2 (the header is row 1)", () => {
    const { errors } = checkRows(parseCsvText("barcode,product_name,vendor\n123,A,B\nab,,V\n").rows);
    expect(errors).toEqual(["Row 3: Missing required field 'product_name'", "Row 3: Barcode too short"]);
  });

  it("reads headers case- and space-insensitively and skips blank lines", () => {
    const { rows } = parseCsvText("\uFEFF Barcode ,PRODUCT_NAME,vendor\r\n\r\n123, A ,B\r\n,,\r\n");
    expect(rows).toEqual([{ barcode: "123", product_name: " A ", vendor: "B" }]);
  });

  it("reports a broken file as 'Error parsing CSV: ...'", () => {
    expect(() => parseCsvText('barcode,product_name,vendor\n"123,A,B\n')).toThrow(/^Error parsing CSV: /);
  });
});

describe("parseCsvFile", () => {
  it("reads a file in chunks with progress, the same as the text", async () => {
    const text = toCsv(
      CSV_COLUMNS,
      Array.from({ length: 3000 }, (_, i) => ({
        barcode: `B-${i}`,
        product_name: `=Name ${i}`,
        vendor: "V",
        release_year: "",
        quantity_on_hand: String(i),
        is_active: "",
      })),
    );
    const progress: number[] = [];
    const parsed = await parseCsvFile(new File([text], "big.csv"), (p) => progress.push(p));
    expect(parsed).toEqual(parseCsvText(text));
    expect(parsed.rows[7]?.product_name).toBe("=Name 7");
    expect(progress.at(-1)).toBe(1);
  });

  it("rejects a broken file with 'Error parsing CSV: ...'", async () => {
    const broken = 'barcode,product_name,vendor\nB-1,"Unclosed,V\nB-2,Fine,V\n';
    await expect(parseCsvFile(new File([broken], "broken.csv"))).rejects.toThrow(/^Error parsing CSV: Quoted field unterminated/);
  });
});

describe("CSV helpers", () => {
  it("accepts only file names ending in .csv", () => {
    expect(isCsvFileName("inventory.csv")).toBe(true);
    expect(isCsvFileName("INVENTORY.CSV")).toBe(true);
    expect(isCsvFileName("inventory.xlsx")).toBe(false);
    expect(isCsvFileName("csv")).toBe(false);
  });

  it("lists at most 10 errors, then '... and N more errors'", () => {
    const errors = Array.from({ length: 13 }, (_, i) => `Row ${i + 2}: Barcode too short`);
    expect(errorSummary(errors)).toEqual({ shown: errors.slice(0, 10), more: "... and 3 more errors" });
    expect(errorSummary(errors.slice(0, 10))).toEqual({ shown: errors.slice(0, 10), more: null });
  });

  it("previews the first 5 rows", () => {
    expect(previewRows([1, 2, 3, 4, 5, 6, 7])).toEqual([1, 2, 3, 4, 5]);
  });
});
