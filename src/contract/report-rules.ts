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

/** A product is to be reordered when its stock is at or under its reorder point. */
export function atOrUnderReorderPoint(quantity: number, reorderPoint: number | null): boolean {
  return reorderPoint !== null && quantity <= reorderPoint;
}

/** A change that takes a product to or under its reorder point (it was above it, or had none, before). */
export function reachedReorderPoint(
  before: { quantity: number; reorderPoint: number | null },
  after: { quantity: number; reorderPoint: number | null },
): boolean {
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
