// Reports: who sees what, sources and the reorder rule (no zod: the client's first screen uses them).
import type { Role } from "./permissions.js";

/** Managers and super administrators see money at cost; inventory users see reports without it (cost fields null). */
export function seesCost(role: Role): boolean {
  return role === "manager" || role === "super_admin";
}

/** Who gets the live low-stock toast. */
export function hearsLowStock(role: Role): boolean {
  return role === "manager" || role === "super_admin";
}

/** Where a sale was made: a show, a streamer tap outside a show, or an order of a channel (`order:<channel>`). */
export const SALE_SOURCES = ["show", "stream"] as const;
export type SaleSource = (typeof SALE_SOURCES)[number] | `order:${string}`;

export const REPORT_BUCKETS = ["day", "week", "month"] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

/** Slow movers: products with stock and no sale in this many days. */
export const SLOW_MOVER_DAYS = [30, 60, 90] as const;

/** The longest range a report answers (a little over two years of days). */
export const REPORT_MAX_DAYS = 800;

/** A product's stock and reorder point, as the reorder rule reads them. */
export interface StockLevel {
  quantity: number;
  reorderPoint: number | null;
}

export const stockLevel = (p: { quantity_on_hand: number; reorder_point?: number | null }): StockLevel => ({
  quantity: p.quantity_on_hand,
  reorderPoint: p.reorder_point ?? null,
});

/**
 * The reorder rule. The database has it as SQL functions (migration 0020): the "To reorder"
 * report and the `product.low_stock` webhook's trigger use those; these mirror them for the
 * server's low-stock toast and the screens (reorder-rule.test.ts holds both to one table of cases).
 * A product is to be reordered when its stock is at or under its reorder point (at_or_under_reorder_point).
 */
export function atOrUnderReorderPoint(quantity: number, reorderPoint: number | null | undefined): boolean {
  return reorderPoint !== null && reorderPoint !== undefined && quantity <= reorderPoint;
}

/**
 * A change reached the reorder point when it left the product at or under its point and it was
 * not there before (reached_reorder_point): a fall to the point, or a point raised to or over the stock.
 */
export function reachedReorderPoint(before: StockLevel, after: StockLevel): boolean {
  return atOrUnderReorderPoint(after.quantity, after.reorderPoint) && !atOrUnderReorderPoint(before.quantity, before.reorderPoint);
}

/** What the purchase list suggests ordering: enough to bring the stock back above its point. */
export function suggestedOrder(quantity: number, reorderPoint: number): number {
  return Math.max(reorderPoint - quantity + 1, 1);
}

export const REPORT_MESSAGES = {
  range: "from must be a date on or before to (YYYY-MM-DD)",
  tooLong: `The range may span at most ${REPORT_MAX_DAYS} days`,
} as const;
