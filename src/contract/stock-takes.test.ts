import { describe, expect, it } from "vitest";
import {
  dropUnknownBodySchema,
  keepMisplacedBodySchema,
  linkUnknownBodySchema,
  moveMisplacedBodySchema,
  parseStackCount,
  reviewLineSchema,
  SCAN_QUANTITY_MAX,
  scansBodySchema,
  stockTakeReason,
} from "./stock-takes.js";

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

describe("the review's actions", () => {
  it("name a product and, to move it, a location; link and drop name a barcode (printable, not blank)", () => {
    expect(moveMisplacedBodySchema.parse({ product_id: 3, location: " Case A " })).toEqual({ product_id: 3, location: "Case A" });
    expect(moveMisplacedBodySchema.safeParse({ product_id: 3 }).success).toBe(false);
    expect(moveMisplacedBodySchema.safeParse({ product_id: 3, location: "  " }).success).toBe(false);
    expect(keepMisplacedBodySchema.safeParse({ product_id: 0 }).success).toBe(false);
    expect(linkUnknownBodySchema.parse({ barcode: "999", product_id: 4 })).toEqual({ barcode: "999", product_id: 4 });
    expect(linkUnknownBodySchema.safeParse({ barcode: "999" }).success).toBe(false);
    expect(dropUnknownBodySchema.safeParse({ barcode: "a\u0007" }).success).toBe(false);
  });

  it("a review line from a server before them (no placement, no catalogue product) still reads", () => {
    const line = {
      product_id: 1,
      barcode: "1",
      name: "Card",
      location: null,
      found_in: [],
      expected: 1,
      counted: 1,
      difference: 0,
      value_at_cost: null,
      value_at_price: null,
      status: "counted",
      applied: null,
    };
    expect(reviewLineSchema.safeParse(line).success).toBe(true);
    expect(reviewLineSchema.safeParse({ ...line, placement: "kept", catalogue_product: null }).success).toBe(true);
    expect(reviewLineSchema.safeParse({ ...line, placement: "lost" }).success).toBe(false);
  });
});
