// The counter's reports (issue 40): buys over time, the margin realised on cards bought in, store credit outstanding.
// Days are days in the server's TIMEZONE; money in whole cents.
import { z } from "zod";
import { REPORT_BUCKETS } from "./report-rules.js";

/** The rule the margin report follows, said the same way by the API's description and the Reports screen. */
export const BOUGHT_IN_MARGIN_RULE =
  "Cards sold in the range (orders not cancelled, and sale taps in the streamer view or a show) whose product came in " +
  "through at least one accepted trade-in. Revenue is each sale's units times its unit price (no price counts 0); " +
  "cost is the same units times the average price the shop paid per unit on that product's accepted trade-in lines " +
  "(cash and credit alike); margin is revenue less cost. Units bought another way are costed at that average too.";

export const buysBucketSchema = z.object({
  /** The bucket's first day (a Monday for weeks, the 1st for months). */
  start: z.string(),
  /** Trade-ins accepted in the bucket. */
  trade_ins: z.number().int(),
  units: z.number().int(),
  cash: z.number().int(),
  credit: z.number().int(),
});
export type BuysBucket = z.infer<typeof buysBucketSchema>;

export const buysReportSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_BUCKETS),
  buckets: z.array(buysBucketSchema),
  totals: z.object({ trade_ins: z.number().int(), units: z.number().int(), cash: z.number().int(), credit: z.number().int() }),
});
export type BuysReport = z.infer<typeof buysReportSchema>;

export const boughtInMarginRowSchema = z.object({
  product_id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  units: z.number().int(),
  revenue: z.number().int(),
  /** Units sold times the average paid per unit; null for inventory users (no money at cost). */
  cost: z.number().int().nullable(),
  margin: z.number().int().nullable(),
  /** The average paid per unit on the product's accepted trade-in lines; null for inventory users. */
  paid_per_unit: z.number().int().nullable(),
});
export type BoughtInMarginRow = z.infer<typeof boughtInMarginRowSchema>;

export const boughtInMarginReportSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  rule: z.string(),
  /** Most margin first (most revenue for inventory users), at most `limit`; `totals` cover every product. */
  products: z.array(boughtInMarginRowSchema),
  totals: z.object({
    units: z.number().int(),
    revenue: z.number().int(),
    cost: z.number().int().nullable(),
    margin: z.number().int().nullable(),
  }),
});
export type BoughtInMarginReport = z.infer<typeof boughtInMarginReportSchema>;

export const creditReportSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  /** The sum of every customer's balance now: what the shop owes in store credit. */
  outstanding: z.number().int(),
  customers_with_balance: z.number().int(),
  /** Credit written in the range by kind (trade-ins and adjustments up, orders and expiries down; signed cents). */
  movements: z.object({ trade_in: z.number().int(), order: z.number().int(), adjustment: z.number().int(), expiry: z.number().int() }),
});
export type CreditReport = z.infer<typeof creditReportSchema>;
