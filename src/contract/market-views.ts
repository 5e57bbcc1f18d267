import { z } from "zod";

// Where people look at market prices (issue 39): the market price beside our price in the
// inventory (asked for the rows a screen shows, never carried by the catalogue: decision 0013)
// and the products priced under their market price. Money in cents of the shop's currency.

/** Products one GET /api/prices/market may ask for: a screenful of rows or two. */
export const MARKET_QUOTE_IDS_MAX = 200;

const ID_LIST = /^\d{1,10}(,\d{1,10})*$/;

export const marketQuotesQuerySchema = z.object({
  /** Product ids, comma-separated (at most MARKET_QUOTE_IDS_MAX). */
  ids: z
    .string()
    .regex(ID_LIST, "ids must be product ids separated by commas")
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .refine((ids) => ids.length <= MARKET_QUOTE_IDS_MAX, `At most ${MARKET_QUOTE_IDS_MAX} ids at once`)
    .refine((ids) => ids.every((id) => id > 0 && id <= 2_147_483_647), "ids must be product ids separated by commas"),
});

/** A product's latest market price (Near Mint, from the feed that saw it last), as the streamer screen shows it. */
export const marketQuoteSchema = z.object({
  product_id: z.number().int(),
  market: z.number().int(),
  currency: z.string(),
  /** The day this price was first seen; `checked_on` the last day a feed confirmed it (its age). */
  day: z.string(),
  checked_on: z.string(),
});
export type MarketQuote = z.infer<typeof marketQuoteSchema>;

export const marketQuotesAnswerSchema = z.object({
  /** One per asked-for product that has a market price; a product left out has none. */
  quotes: z.array(marketQuoteSchema),
});
export type MarketQuotesAnswer = z.infer<typeof marketQuotesAnswerSchema>;

export const UNDER_MARKET_LIMIT_MAX = 200;
export const underMarketQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(UNDER_MARKET_LIMIT_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** An active, ungraded product whose price is under its latest market price. */
export const underMarketProductSchema = z.object({
  product_id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  quantity_on_hand: z.number().int(),
  price: z.number().int(),
  market: z.number().int(),
  checked_on: z.string(),
  /** market - price, per unit. */
  under_by: z.number().int(),
  /** (market - price) / market in percent, to a tenth. */
  under_percent: z.number(),
  /** The gap times the stock (at least one): what the list is sorted by. */
  at_stake: z.number().int(),
});
export type UnderMarketProduct = z.infer<typeof underMarketProductSchema>;

export const underMarketAnswerSchema = z.object({
  products: z.array(underMarketProductSchema),
  /** Products under market in all (the list is one page of them). */
  total: z.number().int(),
  /** The sum of every one's `at_stake`. */
  total_at_stake: z.number().int(),
});
export type UnderMarketAnswer = z.infer<typeof underMarketAnswerSchema>;
