import { describe, expect, it } from "vitest";
import { parseStackCount, SCAN_QUANTITY_MAX, scansBodySchema, stockTakeReason } from "./stock-takes.js";

describe("a typed stack's count", () => {
  it('reads "x 24", "X24", "×24", "*3" and "24"; nothing else', () => {
    for (const [text, n] of [
      ["x 24", 24],
      ["X24", 24],
      ["×24", 24],
      ["*3", 3],
      [" 24 ", 24],
      [`x ${SCAN_QUANTITY_MAX}`, SCAN_QUANTITY_MAX],
    ] as const) {
      expect(parseStackCount(text), text).toBe(n);
    }
    for (const text of ["", "x", "x 0", "x -2", "x 2.5", "24 cards", `x ${SCAN_QUANTITY_MAX + 1}`, "0820650853548"]) {
      expect(parseStackCount(text), text).toBeUndefined();
    }
  });

  it("a scan counts 1 unless a quantity is sent; the reason names the session's number", () => {
    const body = scansBodySchema.parse({ scans: [{ client_scan_id: "a", barcode: "123" }] });
    expect(body.scans[0]?.quantity).toBe(1);
    expect(scansBodySchema.safeParse({ scans: [{ client_scan_id: "a", barcode: "123", quantity: 0 }] }).success).toBe(false);
    expect(stockTakeReason(7)).toBe("Stock take #7");
  });
});
