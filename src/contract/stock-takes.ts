import { z } from "zod";
import { centsSumSchema, ID_MAX } from "./common.js";
import { REPORT_BUCKETS } from "./report-rules.js";
import { BARCODE_MAX, LOCATION_MAX } from "./rules.js";

/**
 * Stock takes (issue 41): counting a location, several, or the whole shop while the shop keeps
 * selling. Each product's expected quantity is its stock when it was first counted in the session,
 * moved by every stock change to it after that (the quantity audit); the approved differences go
 * through the one stock path with the reason `Stock take #N`.
 */

/**
 * `approving`: an approval's batches are running under its lease on the session (or were cut off:
 * once the lease has expired, approving again takes it over and resumes them).
 */
export const STOCK_TAKE_STATUSES = ["counting", "review", "approving", "approved", "cancelled"] as const;
export type StockTakeStatus = (typeof STOCK_TAKE_STATUSES)[number];

/** What a scan found: the product where it belongs, a product at home elsewhere, a barcode the catalogue lacks, or one counted before. */
export const SCAN_RESULTS = ["found", "new_to_location", "unknown", "already_counted"] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];

/** A review line's state: scanned, expected but never scanned, scanned away from its location, or a barcode not in the catalogue. */
export const REVIEW_LINE_STATUSES = ["counted", "missing", "misplaced", "unknown"] as const;
export type ReviewLineStatus = (typeof REVIEW_LINE_STATUSES)[number];

/** How a misplaced product was settled in the review: moved to where it was found, or kept and counted there. */
export const PLACEMENTS = ["moved", "kept"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** The most scans one request may carry (an offline queue sends its backlog in pieces this size). */
export const SCANS_PER_REQUEST_MAX = 500;
/** One scan counts at most this many (a typed stack, "x 24"). */
export const SCAN_QUANTITY_MAX = 100_000;
export const CLIENT_SCAN_ID_MAX = 100;
export const DEVICE_MAX = 100;
export const STOCK_TAKES_LIMIT_MAX = 200;

/** The reason the approved differences carry in the quantity audit. */
export const stockTakeReason = (number: number) => `Stock take #${number}`;

export const STOCK_TAKE_MESSAGES = {
  notFound: "Stock take not found",
  locationNotFound: "Location not found",
  locationTaken: "A location with this name already exists",
  notCounting: "This stock take is no longer counting",
  notOpen: "This stock take is no longer counting or in review",
  finished: "This stock take is already approved or cancelled",
  approving: "This stock take is being approved",
  unknownLocations: "Some of these locations do not exist",
  refused: (n: number) => `${n} product(s) could not be changed (disabled, or the stock would go below 0): approve the others`,
  scopeRequired: "Choose locations, or the whole shop",
  notMisplaced: "This product is not found away from its location in this stock take",
  notFoundThere: "This product was not scanned in that location in this stock take",
  noUnknownScans: "This stock take has no unknown scans of this barcode",
  notThisBarcode: "This product does not have this barcode: add the barcode to it first",
  productNotFound: "Product not found",
} as const;

/**
 * "x 24", "X24", "×24" or "24": a typed stack's count; undefined when the text is not one.
 * The counting screen reads it; the API takes the number.
 */
export function parseStackCount(text: string): number | undefined {
  const match = /^\s*(?:[x×*]\s*)?(\d{1,6})\s*$/i.exec(text);
  if (!match) return undefined;
  const n = Number(match[1]);
  return n >= 1 && n <= SCAN_QUANTITY_MAX ? n : undefined;
}

const PRINTABLE = /^[^\p{Cc}]*$/u;
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(PRINTABLE, `${label} must be printable text`);
const idSchema = z.number().int().positive().max(ID_MAX);

export const locationSchema = z.object({ id: z.number().int(), name: z.string(), created_at: z.string() });
export type Location = z.infer<typeof locationSchema>;

export const createLocationBodySchema = z.object({ name: text("Location", LOCATION_MAX) });
export type CreateLocationBody = z.infer<typeof createLocationBodySchema>;

/** POST /api/locations/from-products: the locations made from the products' distinct `location` texts. */
export const locationsFromProductsAnswerSchema = z.object({ created: z.array(locationSchema), locations: z.array(locationSchema) });
export type LocationsFromProductsAnswer = z.infer<typeof locationsFromProductsAnswerSchema>;

/** A session counts some locations (products whose `location` is one of their names) or the whole shop. */
export const stockTakeScopeSchema = z.union([
  z.object({ location_ids: z.array(idSchema).min(1, STOCK_TAKE_MESSAGES.scopeRequired).max(200) }).strict(),
  z.object({ whole_shop: z.literal(true) }).strict(),
]);
export type StockTakeScope = z.infer<typeof stockTakeScopeSchema>;

export const startStockTakeBodySchema = z.object({ scope: stockTakeScopeSchema });
export type StartStockTakeBody = z.infer<typeof startStockTakeBodySchema>;

export const stockTakeSchema = z.object({
  id: z.number().int(),
  /** Shown as `Stock take #N`. */
  number: z.number().int(),
  status: z.enum(STOCK_TAKE_STATUSES),
  scope: stockTakeScopeSchema,
  started_by: z.string(),
  started_at: z.string(),
  /** Set when approved or cancelled. */
  finished_at: z.string().nullable(),
  approved_by: z.string().nullable(),
  /** Scans recorded so far. */
  scans: z.number().int(),
});
export type StockTake = z.infer<typeof stockTakeSchema>;

export const stockTakesQuerySchema = z.object({
  status: z.enum(STOCK_TAKE_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(STOCK_TAKES_LIMIT_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type StockTakesQuery = z.infer<typeof stockTakesQuerySchema>;

export const scanSchema = z.object({
  id: z.number().int(),
  session_id: z.number().int(),
  barcode: z.string(),
  product_id: z.number().int().nullable(),
  location_id: z.number().int().nullable(),
  quantity: z.number().int(),
  device: z.string().nullable(),
  user: z.string(),
  scanned_at: z.string(),
  client_scan_id: z.string(),
});
export type Scan = z.infer<typeof scanSchema>;

export const scanInputSchema = z.object({
  /** Made by the device (a UUID): the same id again is the same scan, applied once (an offline queue's replay). */
  client_scan_id: text("Scan id", CLIENT_SCAN_ID_MAX),
  barcode: text("Barcode", BARCODE_MAX),
  /** A stack typed as "x 24" counts 24 (parseStackCount); 1 by default. */
  quantity: z
    .number({ error: "Quantity must be a whole number of 1 or more" })
    .int("Quantity must be a whole number of 1 or more")
    .min(1, "Quantity must be a whole number of 1 or more")
    .max(SCAN_QUANTITY_MAX, "Quantity is too large")
    .default(1),
  /** Where it was found; none in a whole-shop count without locations. */
  location_id: idSchema.optional(),
});
export type ScanInput = z.input<typeof scanInputSchema>;

/** One scan or many (an offline queue's backlog, applied in the order sent). */
export const scansBodySchema = z.object({
  scans: z.array(scanInputSchema).min(1).max(SCANS_PER_REQUEST_MAX),
  /** The device's name as its user sees it ("Till phone", "USB scanner 2"). */
  device: text("Device", DEVICE_MAX).optional(),
});
export type ScansBody = z.input<typeof scansBodySchema>;

export const scanAnswerSchema = z.object({
  client_scan_id: z.string(),
  result: z.enum(SCAN_RESULTS),
  product_id: z.number().int().nullable(),
  product_name: z.string().nullable(),
  /** Counted in this session before this scan (for `already_counted`: "already counted 3"). */
  count: z.number().int(),
  /** Counted in this session with this scan. */
  counted: z.number().int(),
  /** True when this client_scan_id had been recorded before: nothing was counted again. */
  replayed: z.boolean(),
  scan: scanSchema,
});
export type ScanAnswer = z.infer<typeof scanAnswerSchema>;

export const scansAnswerSchema = z.object({
  scans: z.array(scanAnswerSchema),
  /** The session as these scans left it (read after them: `scans` counts them and any committed since). */
  stock_take: stockTakeSchema,
});
export type ScansAnswer = z.infer<typeof scansAnswerSchema>;

export const reviewLineSchema = z.object({
  /** Null for an unknown barcode. */
  product_id: z.number().int().nullable(),
  barcode: z.string(),
  /** The product's name; null for an unknown barcode. */
  name: z.string().nullable(),
  /** The product's own location (its free-text `location`); null when it has none. */
  location: z.string().nullable(),
  /** Where it was scanned (location names; "" for scans without a location). */
  found_in: z.array(z.string()),
  /** Its stock when first counted, moved by every stock change to it since; for a missing product its stock now. */
  expected: z.number().int(),
  counted: z.number().int(),
  /** counted - expected: what approving changes the stock by. */
  difference: z.number().int(),
  /** difference x cost and x price, in cents; null when the product has none. */
  value_at_cost: centsSumSchema.nullable(),
  value_at_price: centsSumSchema.nullable(),
  status: z.enum(REVIEW_LINE_STATUSES),
  /** Set once approved: the change that went through the stock path (0: nothing to change). */
  applied: z.number().int().nullable(),
  /**
   * A product found away from its location, settled in the review: `moved` (its location is now
   * where it was found) or `kept` (counted where it was found, its location kept); either way it
   * is a `counted` line. Null (or absent): not settled.
   */
  placement: z.enum(PLACEMENTS).nullable().optional(),
  /**
   * An unknown barcode that a product in the catalogue has now (created since it was scanned):
   * link its scans to it (POST /api/stock-takes/{id}/unknown/link). Null (or absent) otherwise.
   */
  catalogue_product: z.object({ id: z.number().int(), name: z.string() }).nullable().optional(),
});
export type ReviewLine = z.infer<typeof reviewLineSchema>;

const sumsSchema = z.object({
  lines: z.number().int(),
  difference: z.number().int(),
  value_at_cost: centsSumSchema,
  value_at_price: centsSumSchema,
});

export const stockTakeReviewSchema = z.object({
  stock_take: stockTakeSchema,
  lines: z.array(reviewLineSchema),
  /** Sums per location (the product's own location; "" for none), and for the whole session. */
  locations: z.array(sumsSchema.extend({ location: z.string() })),
  totals: sumsSchema,
  /**
   * An approval's answer: products whose change was refused while it ran (disabled, or the stock
   * would have gone below 0, after the check before it began); their lines keep `applied: null`
   * and the others are applied. Empty when all went through.
   */
  refused_product_ids: z.array(z.number().int()).optional(),
});
export type StockTakeReview = z.infer<typeof stockTakeReviewSchema>;

export const approveStockTakeBodySchema = z.object({
  /** The products whose differences to apply; all when absent. */
  product_ids: z.array(idSchema).max(100_000).optional(),
});
export type ApproveStockTakeBody = z.infer<typeof approveStockTakeBodySchema>;

export const stockTakeAnswerSchema = z.object({ stock_take: stockTakeSchema });

/** POST /api/stock-takes/{id}/misplaced/move: the product's location becomes `location`, one of the names it was found in. */
export const moveMisplacedBodySchema = z.object({
  product_id: idSchema,
  location: text("Location", LOCATION_MAX),
});
export type MoveMisplacedBody = z.infer<typeof moveMisplacedBodySchema>;

/** POST /api/stock-takes/{id}/misplaced/keep: counted where it was found; the product keeps its location. */
export const keepMisplacedBodySchema = z.object({ product_id: idSchema });
export type KeepMisplacedBody = z.infer<typeof keepMisplacedBodySchema>;

/** POST /api/stock-takes/{id}/unknown/link: the unknown scans of `barcode` become the scans of the product that has it. */
export const linkUnknownBodySchema = z.object({ barcode: text("Barcode", BARCODE_MAX), product_id: idSchema });
export type LinkUnknownBody = z.infer<typeof linkUnknownBodySchema>;

/** POST /api/stock-takes/{id}/unknown/drop: the unknown scans of `barcode` are left out of the review and report. */
export const dropUnknownBodySchema = z.object({ barcode: text("Barcode", BARCODE_MAX) });
export type DropUnknownBody = z.infer<typeof dropUnknownBodySchema>;

/** The answer of move, keep and link: the product's review line now. */
export const reviewLineAnswerSchema = z.object({ line: reviewLineSchema });
export type ReviewLineAnswer = z.infer<typeof reviewLineAnswerSchema>;

/** The answer of drop: the barcode and how many of its scans were dropped. */
export const dropUnknownAnswerSchema = z.object({ barcode: z.string(), dropped: z.number().int() });
export type DropUnknownAnswer = z.infer<typeof dropUnknownAnswerSchema>;

/** Products an approval works on per short transaction (each its own batch, the taps served between). */
export const APPROVAL_BATCH_SIZE = 250;

/**
 * GET /api/reports/shrinkage takes the sales report's query (salesQuerySchema of reports.ts: from,
 * to, by day, week or month) and sums the approved stock take differences per bucket.
 */
export const shrinkageRowSchema = z.object({
  /** The first day of the day, week (Monday) or month, YYYY-MM-DD. */
  period: z.string(),
  /** Stock takes approved in it with at least one change. */
  stock_takes: z.number().int(),
  /** Units: the approved differences' sum (negative: missing), and the missing and extra apart. */
  difference: z.number().int(),
  missing: z.number().int(),
  extra: z.number().int(),
  /** The same in cents at each product's cost (today's; 0 for a product without one); null for those who do not see cost. */
  value_at_cost: centsSumSchema.nullable(),
  missing_at_cost: z.number().int().nullable(),
  extra_at_cost: z.number().int().nullable(),
});
export type ShrinkageRow = z.infer<typeof shrinkageRowSchema>;

export const shrinkageAnswerSchema = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_BUCKETS),
  rows: z.array(shrinkageRowSchema),
  totals: shrinkageRowSchema.omit({ period: true }),
});
export type ShrinkageAnswer = z.infer<typeof shrinkageAnswerSchema>;

/**
 * The live event `stock_take_update`: scans recorded, the session started, approved or cancelled,
 * or its review changed (`stock_take_reviewed`: a misplaced product moved or kept, an unknown
 * barcode linked or dropped).
 */
export interface StockTakeUpdate {
  type: "stock_take_started" | "stock_take_scanned" | "stock_take_reviewed" | "stock_take_approved" | "stock_take_cancelled";
  stock_take: StockTake;
  /** stock_take_scanned: the new scans with what each found. */
  scans?: ScanAnswer[];
  timestamp: string;
  userId: number;
}
