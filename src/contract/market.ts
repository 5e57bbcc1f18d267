// Market prices: the printings a feed prices, its kinds of price, and the feeds' formats.
// No zod here: the parsers, the pricing rules and the screens all use these.

/** A card's printing as feeds price it; a product's `finish` is one of these (null: normal). */
export const FINISHES = ["normal", "foil", "holofoil", "reverse_holofoil", "etched"] as const;
export type Finish = (typeof FINISHES)[number];

export const FINISH_LABELS: Record<Finish, string> = {
  normal: "Normal",
  foil: "Foil",
  holofoil: "Holofoil",
  reverse_holofoil: "Reverse holofoil",
  etched: "Etched",
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
