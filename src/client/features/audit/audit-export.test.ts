import { describe, expect, it } from "vitest";
import { CHANGE_COLUMNS, changeRow, QUANTITY_COLUMNS, quantityRow } from "./audit-export";

describe("audit CSV rows", () => {
  it("has a cell for every column of each tab", () => {
    const change = changeRow({
      id: 1,
      product_id: 2,
      product_name: "Box",
      barcode: "123",
      action: "UPDATE",
      timestamp: "2026-01-01T00:00:00.000Z",
      user_id: 3,
      user_name: "kim",
      changed_fields: ["vendor", "release_year"],
      old_values: { vendor: "Topps" },
      new_values: { vendor: "Panini" },
      ip_address: null,
    });
    expect(Object.keys(change)).toEqual([...CHANGE_COLUMNS]);
    expect(change).toMatchObject({ changed_fields: "vendor release_year", old_values: '{"vendor":"Topps"}', ip_address: "" });
    const quantity = quantityRow({
      id: 1,
      product_id: 2,
      product_name: "Box",
      barcode: "123",
      quantity_change: -1,
      quantity_before: 3,
      quantity_after: 2,
      transaction_type: "adjustment",
      notes: "Damaged: corner crushed",
      user_name: "kim",
      user_id: 3,
      timestamp: "2026-01-01T00:00:00.000Z",
    });
    expect(Object.keys(quantity)).toEqual([...QUANTITY_COLUMNS]);
    expect(quantity).toMatchObject({ quantity_change: "-1", notes: "Damaged: corner crushed" });
  });
});
