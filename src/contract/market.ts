// Market prices: the printings a feed prices, its kinds of price, and the feeds' formats.
// No zod here: the parsers, the pricing rules and the screens all use these.

/**
 * A card's printing as feeds price it; a product's `finish` is one of these (null: normal). A first
 * edition is a printing of its own (TCGplayer and pokemontcg.io price it apart from the unlimited
 * card, often at ten times the price): a first-edition product takes only first-edition prices, and
 * a normal or holofoil one only the unlimited card's. New values go at the end.
 */
export const FINISHES = [
  "normal",
  "foil",
  "holofoil",
  "reverse_holofoil",
  "etched",
  "first_edition_normal",
  "first_edition_holofoil",
] as const;
export type Finish = (typeof FINISHES)[number];

export const FINISH_LABELS: Record<Finish, string> = {
  normal: "Normal",
  foil: "Foil",
  holofoil: "Holofoil",
  reverse_holofoil: "Reverse holofoil",
  etched: "Etched",
  first_edition_normal: "1st Edition normal",
  first_edition_holofoil: "1st Edition holofoil",
};

/** The kinds of price a feed may publish for one printing. */
export const PRICE_KINDS = ["market", "low", "mid", "high", "direct_low"] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];

/** The formats feeds come in, as their sources publish them. */
export const FEED_FORMATS = ["tcgcsv", "scryfall", "pokemontcg", "csv"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export const FEED_FORMAT_LABELS: Record<FeedFormat, string> = {
  tcgcsv: "TCGplayer prices (TCGCSV products and prices JSON)",
  scryfall: "Scryfall bulk cards (JSON)",
  pokemontcg: "pokemontcg.io v2 cards (JSON)",
  csv: "CSV (id or barcode, finish, condition, price)",
};

/** The ids a product may carry to be found in feeds (besides its barcode). */
export const MARKET_ID_FIELDS = ["tcgplayer_product_id", "scryfall_id", "pokemontcg_id"] as const;
export type MarketIdField = (typeof MARKET_ID_FIELDS)[number];
