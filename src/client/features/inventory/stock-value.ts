import type { Product } from "../../../contract/products";
import { amountCell, toCsv } from "../csv";

/** Units and their value (whole cents: exact, no float drift) of a list of products. */
export interface StockValue {
  units: number;
  atPrice: number;
  atCost: number;
  /** Products in stock without a price (their units count; their value is unknown). */
  withoutPrice: number;
  withoutCost: number;
}

export function stockValue(products: Iterable<Product>): StockValue {
  const v = noStockValue();
  for (const p of products) addStockValue(v, p);
  return v;
}

/** stockValue of `at(0)` to `at(n - 1)` (the inventory's rows, without an array of 100,000 products). */
export function stockValueAt(n: number, at: (i: number) => Product): StockValue {
  const v = noStockValue();
  for (let i = 0; i < n; i++) addStockValue(v, at(i));
  return v;
}

/** The stock value of no product (to add products to, a few at a time). */
export function noStockValue(): StockValue {
  return { units: 0, atPrice: 0, atCost: 0, withoutPrice: 0, withoutCost: 0 };
}

/** Adds one product to `v`. */
export function addStockValue(v: StockValue, p: Product): void {
  const q = p.quantity_on_hand;
  v.units += q;
  if (p.price === null) v.withoutPrice += q > 0 ? 1 : 0;
  else v.atPrice += q * p.price;
  if (p.cost === null) v.withoutCost += q > 0 ? 1 : 0;
  else v.atCost += q * p.cost;
}

export const STOCK_VALUE_COLUMNS = [
  "barcode",
  "product_name",
  "quantity_on_hand",
  "price",
  "cost",
  "value_at_price",
  "value_at_cost",
] as const;

/** The stock value report: one row per product (amounts as 12.50, blank when not set), then the totals. */
export function stockValueCsv(products: readonly Product[]): string {
  const total = stockValue(products);
  const rows = products.map((p) => ({
    barcode: p.barcode,
    product_name: p.product_name,
    quantity_on_hand: String(p.quantity_on_hand),
    price: amountCell(p.price),
    cost: amountCell(p.cost),
    value_at_price: p.price === null ? "" : amountCell(p.quantity_on_hand * p.price),
    value_at_cost: p.cost === null ? "" : amountCell(p.quantity_on_hand * p.cost),
  }));
  rows.push({
    barcode: "",
    product_name: "Total",
    quantity_on_hand: String(total.units),
    price: "",
    cost: "",
    value_at_price: amountCell(total.atPrice),
    value_at_cost: amountCell(total.atCost),
  });
  return toCsv(STOCK_VALUE_COLUMNS, rows);
}
