import type { Finish } from "../../../../contract/market.js";
import {
  type ByteSource,
  type FeedRecord,
  idOf,
  inBatches,
  type OnProblem,
  objectOf,
  type ParseOptions,
  textOf,
  toCents,
} from "./feed-record.js";
import { jsonElements } from "./json-elements.js";

/** Each Scryfall price as a record: its field in `prices`, finish, currency, and which TCGplayer id names that printing. */
const PRICES: Array<{ field: string; finish: Finish; currency: string; tcgplayer: "tcgplayer_id" | "tcgplayer_etched_id" }> = [
  { field: "usd", finish: "normal", currency: "USD", tcgplayer: "tcgplayer_id" },
  { field: "usd_foil", finish: "foil", currency: "USD", tcgplayer: "tcgplayer_id" },
  { field: "usd_etched", finish: "etched", currency: "USD", tcgplayer: "tcgplayer_etched_id" },
  { field: "eur", finish: "normal", currency: "EUR", tcgplayer: "tcgplayer_id" },
  { field: "eur_foil", finish: "foil", currency: "EUR", tcgplayer: "tcgplayer_id" },
];

/**
 * Scryfall's bulk cards ("default_cards", "all_cards": one top-level array of card objects), or
 * an API list (`{"object": "list", "data": [...]}`): one record per finish and currency the card
 * has a price in, all of them `market` (Scryfall gives one price per finish: TCGplayer's market
 * price in USD, Cardmarket's trend in EUR). An etched printing is known to TCGplayer by
 * `tcgplayer_etched_id` when the card has one. `tix` (Magic Online) is not money and is left out.
 */
export function parseScryfall(input: ByteSource, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  return inBatches(scryfallRecords(input, options.onProblem ?? (() => {})), options.batchSize);
}

async function* scryfallRecords(input: ByteSource, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let n = 0;
  for await (const value of jsonElements(input, "data")) {
    n++;
    const card = objectOf(value);
    const id = textOf(card?.id);
    if (!card || !id) {
      onProblem(n, "a card without an id");
      continue;
    }
    const prices = objectOf(card.prices);
    if (!prices) {
      onProblem(n, `card ${id} has no prices object (is this a Scryfall cards file?)`);
      continue;
    }
    const name = textOf(card.name);
    const setCode = textOf(card.set);
    const setName = textOf(card.set_name);
    const number = textOf(card.collector_number);
    for (const price of PRICES) {
      const market = toCents(prices[price.field]);
      if (market === undefined) continue;
      // One literal per record (not a spread of shared fields): a bulk file makes millions of them.
      yield {
        scryfall_id: id,
        name,
        set_code: setCode,
        set_name: setName,
        number,
        tcgplayer_product_id: idOf(card[price.tcgplayer]) ?? idOf(card.tcgplayer_id),
        finish: price.finish,
        currency: price.currency,
        prices: { market },
      };
    }
  }
}
