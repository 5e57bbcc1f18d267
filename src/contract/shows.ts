import { z } from "zod";
import { SHOW_NAME_MAX } from "./show-rules.js";

/**
 * Shows: a stream's ledger. A user who can update quantity starts a show with a name; every tap
 * they make from the streamer view while it runs names it (`show_id` on the quantity change),
 * so the quantity audit says which show sold what. Its summary tallies units sold and added per
 * product; ending it gives the summary and a CSV to reconcile with the marketplace's orders.
 */
export const showSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  started_by: z.number().int().nullable(),
  started_by_name: z.string(),
  started_at: z.string(),
  /** Null while the show runs. */
  ended_at: z.string().nullable(),
  ended_by_name: z.string().nullable(),
});
export type Show = z.infer<typeof showSchema>;

export const showLineSchema = z.object({
  product_id: z.number().int().nullable(),
  product_name: z.string(),
  barcode: z.string(),
  /** Units sold and added during the show; a tap undone from the tally counts in neither. */
  sold: z.number().int(),
  added: z.number().int(),
  /** The stock change over the show (added - sold). */
  net: z.number().int(),
  /** The product's latest change in the show. */
  last_change_at: z.string(),
  /** The change that undoes the line's latest tap not undone yet (+1 after a sale), or null. */
  undo_change: z.number().int().nullable(),
  /**
   * Cents taken for the units sold and not undone, at the product's price when each tap was made;
   * null when none of them carried a price.
   */
  revenue: z.number().int().nullable(),
});
export type ShowLine = z.infer<typeof showLineSchema>;

export const showTotalsSchema = z.object({
  sold: z.number().int(),
  added: z.number().int(),
  net: z.number().int(),
  /** Quantity changes tagged with the show, undos included. */
  changes: z.number().int(),
  /** The lines' revenue in cents; null when no line has one. */
  revenue: z.number().int().nullable(),
});
export type ShowTotals = z.infer<typeof showTotalsSchema>;

/** A show with its tally: lines per product, newest first. */
export const showSummarySchema = z.object({
  show: showSchema,
  lines: z.array(showLineSchema),
  totals: showTotalsSchema,
});
export type ShowSummary = z.infer<typeof showSummarySchema>;

/** The list of shows: each with its totals, newest first. */
export const showListItemSchema = showSchema.extend({ totals: showTotalsSchema });
export type ShowListItem = z.infer<typeof showListItemSchema>;

export const startShowBodySchema = z.object({
  name: z
    .string({ error: "Show name is required" })
    .trim()
    .min(1, "Show name is required")
    .max(SHOW_NAME_MAX, `Show name must be at most ${SHOW_NAME_MAX} characters`),
});
export type StartShowBody = z.input<typeof startShowBodySchema>;

export const currentShowSchema = z.object({ show: showSummarySchema.nullable() });
export type CurrentShow = z.infer<typeof currentShowSchema>;

export const showListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
