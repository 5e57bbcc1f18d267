import { describe, expect, it } from "vitest";
import { partsOf } from "./import-products";

describe("partsOf", () => {
  it("cuts a file into parts of 5,000 rows, each knowing its first file row", () => {
    const rows = Array.from({ length: 12_001 }, (_, i) => i);
    const parts = partsOf(rows);
    expect(parts.map((p) => p.rows.length)).toEqual([5000, 5000, 2001]);
    expect(parts.map((p) => p.firstRow)).toEqual([2, 5002, 10002]);
    expect(parts[1]?.rows[0]).toBe(5000);
    expect(partsOf([])).toEqual([]);
  });
});
