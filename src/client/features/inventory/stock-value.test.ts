import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products";
import { NO_DETAILS } from "../../../contract/rules";
import { stockValue, stockValueCsv } from "./stock-value";

const product = (id: number, quantity: number, price: number | null, cost: number | null): Product => ({
  id,
  barcode: `B${id}`,
  product_name: `Card ${id}`,
  vendor: "Topps",
  release_year: null,
  quantity_on_hand: quantity,
  is_active: true,
  ...NO_DETAILS,
  photos: [],
  price,
  cost,
  version: 1,
  revision: id,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
});

describe("stock value", () => {
  it("sums units and values in whole cents, counting products in stock without a price", () => {
    // 0.10 + 0.20 three times over would drift in floating point; cents do not.
    const list = [product(1, 3, 10, 5), product(2, 3, 20, null), product(3, 7, null, 100), product(4, 0, null, null)];
    expect(stockValue(list)).toEqual({ units: 13, atPrice: 90, atCost: 715, withoutPrice: 1, withoutCost: 1 });
  });

  it("writes a report row per product and a total", () => {
    const csv = Papa.parse(stockValueCsv([product(1, 2, 1250, 800), product(2, 1, null, null)]), { header: true });
    expect(csv.errors).toEqual([]);
    expect(csv.data).toEqual([
      {
        barcode: "B1",
        product_name: "Card 1",
        quantity_on_hand: "2",
        price: "12.50",
        cost: "8.00",
        value_at_price: "25.00",
        value_at_cost: "16.00",
      },
      { barcode: "B2", product_name: "Card 2", quantity_on_hand: "1", price: "", cost: "", value_at_price: "", value_at_cost: "" },
      { barcode: "", product_name: "Total", quantity_on_hand: "3", price: "", cost: "", value_at_price: "25.00", value_at_cost: "16.00" },
    ]);
  });
});
