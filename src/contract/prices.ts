import { z } from "zod";
import { FEED_FORMATS, FINISHES } from "./market.js";

export const FEED_NAME_MAX = 100;
export const FEED_URL_MAX = 2_000;

const feedUrl = z
  .string()
  .trim()
  .url("Feed URL must be a full http(s) address")
  .max(FEED_URL_MAX)
  .startsWith("http", "Feed URL must be a full http(s) address");

export const createFeedBodySchema = z.object({
  name: z.string().trim().min(1, "Feed name is required").max(FEED_NAME_MAX, `Feed name must be at most ${FEED_NAME_MAX} characters`),
  format: z.enum(FEED_FORMATS, { error: `Format must be one of: ${FEED_FORMATS.join(", ")}` }),
  /** Where the server fetches the feed daily (TCGCSV: the group's prices URL); absent: uploaded only. */
  url: feedUrl.nullable().optional(),
  /** TCGCSV only: the group's products URL that goes with `url`. */
  products_url: feedUrl.nullable().optional(),
});
export type CreateFeedBody = z.input<typeof createFeedBodySchema>;

export const feedRunSchema = z.object({
  id: z.number().int(),
  feed_id: z.number().int(),
  status: z.enum(["running", "done", "failed"]),
  trigger: z.enum(["upload", "schedule", "request"]),
  /** The shop's day (TIMEZONE) the prices were seen on. */
  day: z.string(),
  records: z.number().int(),
  matched: z.number().int(),
  proposals: z.number().int(),
  problems: z.array(z.string()),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type FeedRun = z.infer<typeof feedRunSchema>;

export const priceFeedSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  format: z.enum(FEED_FORMATS),
  url: z.string().nullable(),
  products_url: z.string().nullable(),
  created_at: z.string(),
  last_run: feedRunSchema.nullable(),
});
export type PriceFeed = z.infer<typeof priceFeedSchema>;

export const feedParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const priceStepSchema = z.object({ rule: z.string(), text: z.string(), cents: z.number().int() });

export const priceProposalSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  quantity_on_hand: z.number().int(),
  old_price: z.number().int().nullable(),
  new_price: z.number().int(),
  /** The market price of the product in its condition (estimated from Near Mint when `estimated`). */
  market: z.number().int(),
  estimated: z.boolean(),
  /** (new - old) / old in percent, to a tenth; null when the product had no price. */
  change_percent: z.number().nullable(),
  /** The move times the stock (at least one): what the list is sorted by. */
  at_stake: z.number().int(),
  /** A move over the rules' big-move percent. */
  big: z.boolean(),
  /** Why: the rules that set the price, in their order, in words. */
  steps: z.array(priceStepSchema),
  created_at: z.string(),
});
export type PriceProposal = z.infer<typeof priceProposalSchema>;

export const PROPOSALS_LIMIT_MAX = 500;
export const proposalsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PROPOSALS_LIMIT_MAX).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  big: z.enum(["true", "false"]).optional(),
});
export const proposalsAnswerSchema = z.object({
  proposals: z.array(priceProposalSchema),
  /** Pending proposals in all (the list is one page of them). */
  total: z.number().int(),
  /** Of those, the big moves. */
  big: z.number().int(),
});

export const ACCEPT_IDS_MAX = 50_000;
export const acceptProposalsBodySchema = z
  .object({
    /** The proposals to accept; or `all: true` for every pending one. */
    ids: z.array(z.number().int().positive()).max(ACCEPT_IDS_MAX).optional(),
    all: z.boolean().optional(),
  })
  .refine((b) => (b.ids !== undefined) !== (b.all === true), { message: "Send either ids or all: true" });
export const acceptProposalsAnswerSchema = z.object({
  /** The import that writes the new prices (its progress at GET /api/products/import/jobs/{id}; undone like any import). */
  import_id: z.string(),
  accepted: z.number().int(),
});

export const marketIdsSchema = z.object({
  tcgplayer_product_id: z.number().int().positive().max(2_147_483_647).nullable(),
  scryfall_id: z.string().trim().max(100).nullable(),
  pokemontcg_id: z.string().trim().max(100).nullable(),
  external_ids: z.record(z.string().trim().min(1).max(50), z.string().trim().min(1).max(100)),
  finish: z.enum(FINISHES),
  price_frozen: z.boolean(),
});
export type MarketIds = z.infer<typeof marketIdsSchema>;
export const marketIdsBodySchema = marketIdsSchema.partial();

export const marketPriceSchema = z.object({
  feed_id: z.number().int(),
  feed_name: z.string(),
  /** The day these prices were first seen; `checked_on` the last day a feed confirmed them. */
  day: z.string(),
  checked_on: z.string(),
  finish: z.enum(FINISHES),
  currency: z.string(),
  market: z.number().int().nullable(),
  low: z.number().int().nullable(),
  mid: z.number().int().nullable(),
  high: z.number().int().nullable(),
  direct_low: z.number().int().nullable(),
  by_condition: z.record(z.string(), z.number().int()).nullable(),
});
export const productMarketAnswerSchema = z.object({
  product_id: z.number().int(),
  ids: marketIdsSchema,
  /** The latest prices, from the feed that saw them last; null when no feed prices it. */
  latest: marketPriceSchema.nullable(),
  /** Every recorded change, newest first (at most a year). */
  history: z.array(marketPriceSchema),
});
export type ProductMarket = z.infer<typeof productMarketAnswerSchema>;

export const unmatchedQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PROPOSALS_LIMIT_MAX).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
/** A product the feed's last run did not price: found by none of its ids, nor by its set and number. */
export const unmatchedProductSchema = z.object({
  id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  set_name: z.string().nullable(),
  card_number: z.string().nullable(),
  finish: z.enum(FINISHES),
});
export const unmatchedAnswerSchema = z.object({ products: z.array(unmatchedProductSchema), total: z.number().int() });
export type UnmatchedAnswer = z.infer<typeof unmatchedAnswerSchema>;

export const feedCardsQuerySchema = z.object({
  q: z.string().trim().min(2, "Type at least 2 letters of the card's name").max(100),
});
/** A printing in the feed's last good run: what an unmatched product is linked to. */
export const feedCardSchema = z.object({
  name: z.string().nullable(),
  set_code: z.string().nullable(),
  set_name: z.string().nullable(),
  number: z.string().nullable(),
  finish: z.enum(FINISHES),
  tcgplayer_product_id: z.number().int().nullable(),
  scryfall_id: z.string().nullable(),
  pokemontcg_id: z.string().nullable(),
  market: z.number().int().nullable(),
});
export type FeedCard = z.infer<typeof feedCardSchema>;
