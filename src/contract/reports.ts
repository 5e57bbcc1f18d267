import { z } from "zod";
import { centsSumSchema } from "./common.js";
import { REPORT_BUCKETS, REPORT_MAX_DAYS, REPORT_MESSAGES, SLOW_MOVER_DAYS } from "./report-rules.js";

/**
 * Reports (GET /api/reports/...): sales over time by source, stock value per day, slow movers,
 * top sellers, shows compared and the "To reorder" list. Days are days in the server's TIMEZONE;
 * money in cents. Inventory users get every cost field as null.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = z
  .string()
  .regex(DATE, "expected a date YYYY-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "not a date");

const dayCount = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

/** A range of days, both ends included. */
export const dateRangeQuerySchema = z
  .object({ from: isoDate, to: isoDate })
  .refine((q) => q.from <= q.to, { message: REPORT_MESSAGES.range, path: ["from"] })
  .refine((q) => dayCount(q.from, q.to) <= REPORT_MAX_DAYS, { message: REPORT_MESSAGES.tooLong, path: ["to"] });

export const salesQuerySchema = z
  .object({ from: isoDate, to: isoDate, by: z.enum(REPORT_BUCKETS).default("day") })
  .refine((q) => q.from <= q.to, { message: REPORT_MESSAGES.range, path: ["from"] })
  .refine((q) => dayCount(q.from, q.to) <= REPORT_MAX_DAYS, { message: REPORT_MESSAGES.tooLong, path: ["to"] });
export type SalesQuery = z.output<typeof salesQuerySchema>;

const amounts = z.object({ units: z.number().int(), revenue: z.number().int() });

export const salesBucketSchema = z.object({
  /** The first day of the bucket (a week starts on Monday), YYYY-MM-DD. */
  start: z.string(),
  units: z.number().int(),
  revenue: z.number().int(),
  /** Per source: `show`, `stream`, `order:<channel>`; only sources with sales in the bucket. */
  sources: z.record(z.string(), amounts),
});
export type SalesBucket = z.infer<typeof salesBucketSchema>;

export const salesReportSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_BUCKETS),
  /** Every bucket of the range, in order, also those without sales. */
  buckets: z.array(salesBucketSchema),
  totals: amounts,
  /** The same number of days just before `from`, for comparison. */
  previous: z.object({ from: z.string(), to: z.string(), units: z.number().int(), revenue: z.number().int() }),
  /** Every source with sales in the range, most units first. */
  sources: z.array(z.string()),
});
export type SalesReport = z.infer<typeof salesReportSchema>;

export const stockValueDaySchema = z.object({
  day: z.string(),
  units: z.number().int(),
  at_price: centsSumSchema,
  /** Null for inventory users. */
  at_cost: centsSumSchema.nullable(),
});
export type StockValueDay = z.infer<typeof stockValueDaySchema>;

export const stockValueReportSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  /** One row per day, the stock at the day's end (today: now). */
  days: z.array(stockValueDaySchema),
  /**
   * The stock now at market prices (each product's latest market price, as the inventory shows it):
   * products in stock that have none (or are graded: a raw card's market price is not theirs) count
   * nothing and are counted here.
   */
  market_now: z.object({
    at_market: z.number().int(),
    /** Products in stock valued at market, and their units. */
    products_priced: z.number().int(),
    units_priced: z.number().int(),
    /** Products in stock without a market price, and their units. */
    products_without_market: z.number().int(),
    units_without_market: z.number().int(),
  }),
});
export type StockValueReport = z.infer<typeof stockValueReportSchema>;

export const slowMoversQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((d) => (SLOW_MOVER_DAYS as readonly number[]).includes(d), `days must be one of ${SLOW_MOVER_DAYS.join(", ")}`)
    .default(90),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

const productRef = {
  product_id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  vendor: z.string(),
  quantity_on_hand: z.number().int(),
};

export const slowMoverSchema = z.object({
  ...productRef,
  /** The product's last sale, null when it never sold. */
  last_sale_at: z.string().nullable(),
  /** Stock × price (0 without a price) and stock × cost (null for inventory users). */
  value_at_price: centsSumSchema,
  value_at_cost: centsSumSchema.nullable(),
});
export type SlowMover = z.infer<typeof slowMoverSchema>;

export const slowMoversReportSchema = z.object({
  days: z.number().int(),
  /** Products with stock that have not sold since this instant (and existed before it), most value first. */
  since: z.string(),
  products: z.array(slowMoverSchema),
  /** Over every slow mover, not only the ones listed. */
  totals: z.object({
    products: z.number().int(),
    units: z.number().int(),
    value_at_price: centsSumSchema,
    value_at_cost: centsSumSchema.nullable(),
  }),
});
export type SlowMoversReport = z.infer<typeof slowMoversReportSchema>;

export const topSellersQuerySchema = z
  .object({ from: isoDate, to: isoDate, limit: z.coerce.number().int().min(1).max(500).default(20) })
  .refine((q) => q.from <= q.to, { message: REPORT_MESSAGES.range, path: ["from"] })
  .refine((q) => dayCount(q.from, q.to) <= REPORT_MAX_DAYS, { message: REPORT_MESSAGES.tooLong, path: ["to"] });

export const topSellerSchema = z.object({ ...productRef, units: z.number().int(), revenue: z.number().int() });
export type TopSeller = z.infer<typeof topSellerSchema>;
export const topSellersReportSchema = z.object({ from: z.string(), to: z.string(), products: z.array(topSellerSchema) });
export type TopSellersReport = z.infer<typeof topSellersReportSchema>;

export const showComparedSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  started_by_name: z.string(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  /** Seconds from start to end (to now while it runs). */
  duration_seconds: z.number().int(),
  units: z.number().int(),
  revenue: z.number().int(),
});
export type ShowCompared = z.infer<typeof showComparedSchema>;
export const showsReportSchema = z.object({ from: z.string(), to: z.string(), shows: z.array(showComparedSchema) });
export type ShowsReport = z.infer<typeof showsReportSchema>;

export const reorderItemSchema = z.object({
  ...productRef,
  reorder_point: z.number().int(),
  /** Enough to bring the stock back above its point. */
  suggested_quantity: z.number().int(),
  /** Null without a cost, and for inventory users. */
  cost: z.number().int().nullable(),
});
export type ReorderItem = z.infer<typeof reorderItemSchema>;
export const reorderReportSchema = z.object({
  /** Vendors by name, each with its products by name. */
  vendors: z.array(z.object({ vendor: z.string(), products: z.array(reorderItemSchema) })),
});
export type ReorderReport = z.infer<typeof reorderReportSchema>;
