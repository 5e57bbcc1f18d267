import { describe, expect, it } from "vitest";
import { describeUpdate } from "./describe-update";

const at = "2026-01-01T00:00:00.000Z";

describe("describeUpdate", () => {
  it("says who changed what", () => {
    expect(
      describeUpdate({
        type: "quantity_changed",
        data: { id: 1, product_name: "Card", updated_by: "sam", quantity_change: -2, quantity_on_hand: 3 },
        timestamp: at,
        userId: 2,
      }),
    ).toBe("sam sold 2 of Card (3 left)");
    expect(
      describeUpdate({
        type: "quantity_changed",
        data: { id: 1, product_name: "Card", updated_by: "sam", quantity_change: 1, quantity_on_hand: 4 },
        timestamp: at,
        userId: 2,
      }),
    ).toBe("sam added 1 to Card (4 in stock)");
    expect(
      describeUpdate({
        type: "status_changed",
        data: { product_name: "Card", updated_by: "kim", is_active: false },
        timestamp: at,
        userId: 3,
      }),
    ).toBe("kim disabled Card");
    expect(describeUpdate({ type: "products_imported", data: { updated_by: "kim", count: 12 }, timestamp: at, userId: 3 })).toBe(
      "kim imported products (12 changed)",
    );
    expect(describeUpdate({ type: "product_created", data: { product_name: "New", updated_by: "kim" }, timestamp: at, userId: 3 })).toBe(
      "kim added a new product: New",
    );
  });
});
