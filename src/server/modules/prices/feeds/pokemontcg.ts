import type { Finish } from "../../../../contract/market.js";
import {
  type ByteSource,
  type FeedRecord,
  inBatches,
  type OnProblem,
  objectOf,
  type ParseOptions,
  pricesOf,
  textOf,
} from "./feed-record.js";
import { jsonElements } from "./json-elements.js";
import { onePerFinish, type Printing, readPrinting } from "./printings.js";

type Prices = FeedRecord["prices"];

/**
 * pokemontcg.io API v2 cards: a page as the API answers (`{"data": [...], "page": 1, ...}`) or a
 * bare array of cards, as the data repositories keep them.
 *
 * `tcgplayer.prices` (USD) give one record per printing, with every kind (market, low, mid, high,
 * directLow): normal, holofoil, reverseHolofoil; unlimitedHolofoil is holofoil, and
 * 1stEditionHolofoil / 1stEditionNormal are first_edition_holofoil / first_edition_normal, never the
 * unlimited card's (printings.ts says why).
 *
 * `cardmarket.prices` (EUR) give Cardmarket's trendPrice as market and lowPrice as low (its
 * averageSellPrice and the averages over days are left out): for the card's regular printing,
 * which is holofoil for a card TCGplayer prices only as holofoil (a holo rare; its first edition
 * aside) and normal otherwise (Cardmarket's price is never a first edition's), and from reverseHoloTrend / reverseHoloLow for the reverse holofoil. Cardmarket
 * writes 0 for a price it does not have; those are left out.
 */
export function parsePokemontcg(input: ByteSource, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  return inBatches(pokemontcgRecords(input, options.onProblem ?? (() => {})), options.batchSize);
}

async function* pokemontcgRecords(input: ByteSource, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let n = 0;
  for await (const value of jsonElements(input, "data")) {
    n++;
    const card = objectOf(value);
    const id = textOf(card?.id);
    if (!card || !id) {
      onProblem(n, "a card without an id");
      continue;
    }
    const set = objectOf(card.set);
    const base = {
      pokemontcg_id: id,
      name: textOf(card.name),
      set_code: textOf(set?.id),
      set_name: textOf(set?.name),
      number: textOf(card.number),
    };

    const printings: Array<Printing<Prices | undefined>> = [];
    for (const [name, values] of Object.entries(objectOf(objectOf(card.tcgplayer)?.prices) ?? {})) {
      const printing = readPrinting(name);
      const v = objectOf(values);
      if (!printing) {
        onProblem(n, `card ${id} has a TCGplayer printing we do not know: ${JSON.stringify(name)}`);
        continue;
      }
      if (!v) {
        onProblem(n, `card ${id}: TCGplayer's ${name} prices are not an object`);
        continue;
      }
      const prices = pricesOf({ market: v.market, low: v.low, mid: v.mid, high: v.high, direct_low: v.directLow });
      printings.push({ ...printing, value: prices });
    }
    const usd = onePerFinish(printings);
    for (const { finish, value } of usd) {
      if (value) yield { ...base, finish, currency: "USD", prices: value };
    }

    const cardmarket = objectOf(objectOf(card.cardmarket)?.prices);
    if (!cardmarket) continue;
    const onlyHolofoil =
      usd.length > 0 &&
      usd.every((p) => p.finish === "holofoil" || p.finish === "reverse_holofoil" || p.finish === "first_edition_holofoil") &&
      usd.some((p) => p.finish === "holofoil");
    const regular: Finish = onlyHolofoil ? "holofoil" : "normal";
    const eur = pricesOf({ market: cardmarket.trendPrice, low: cardmarket.lowPrice });
    if (eur) yield { ...base, finish: regular, currency: "EUR", prices: eur };
    const reverse = pricesOf({ market: cardmarket.reverseHoloTrend, low: cardmarket.reverseHoloLow });
    if (reverse) yield { ...base, finish: "reverse_holofoil", currency: "EUR", prices: reverse };
  }
}
