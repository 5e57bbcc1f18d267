import type { FeedRecord } from "./feeds/feed-record.js";

/**
 * A feed's printings as they are staged (feed_cards, without the keys the database computes),
 * made from the parsers' records where they are read: in the reading thread (feed-reader.ts) or,
 * for a TCGCSV pair, on the event loop.
 */
export interface StagedRow {
  seq: number;
  tcgplayer_product_id: number | null;
  scryfall_id: string | null;
  pokemontcg_id: string | null;
  barcode: string | null;
  external_source: string | null;
  external_id: string | null;
  name: string | null;
  set_code: string | null;
  set_name: string | null;
  number: string | null;
  finish: string;
  condition: string | null;
  market: number | null;
  low: number | null;
  mid: number | null;
  high: number | null;
  direct_low: number | null;
}

/** What a run's cards can be matched by: each key no card has is left out of the matching. */
export interface CardKeys {
  tcgplayer: boolean;
  scryfall: boolean;
  pokemontcg: boolean;
  barcode: boolean;
  external: boolean;
  setCode: boolean;
  setName: boolean;
}

export const noCardKeys = (): CardKeys => ({
  tcgplayer: false,
  scryfall: false,
  pokemontcg: false,
  barcode: false,
  external: false,
  setCode: false,
  setName: false,
});

/**
 * One batch of a feed's records ready to stage: those in the shop's currency (a feed's prices in
 * others, Scryfall's EUR, are not its), numbered on from `firstSeq`, as the JSON text the staging
 * statement reads, and the keys they add to `keys`.
 */
export function stagedBatch(
  records: readonly FeedRecord[],
  currency: string,
  firstSeq: number,
  keys: CardKeys,
): { json: string; count: number } {
  const rows: StagedRow[] = [];
  for (const r of records) {
    if (r.currency !== currency) continue;
    if (r.tcgplayer_product_id !== undefined) keys.tcgplayer = true;
    if (r.scryfall_id !== undefined) keys.scryfall = true;
    if (r.pokemontcg_id !== undefined) keys.pokemontcg = true;
    if (r.barcode !== undefined) keys.barcode = true;
    if (r.external_id !== undefined) keys.external = true;
    if (r.number !== undefined && r.set_code !== undefined) keys.setCode = true;
    if (r.number !== undefined && r.set_name !== undefined) keys.setName = true;
    rows.push({
      seq: firstSeq + rows.length,
      tcgplayer_product_id: r.tcgplayer_product_id ?? null,
      scryfall_id: r.scryfall_id ?? null,
      pokemontcg_id: r.pokemontcg_id ?? null,
      barcode: r.barcode ?? null,
      external_source: r.external_id?.source ?? null,
      external_id: r.external_id?.id ?? null,
      name: r.name ?? null,
      set_code: r.set_code ?? null,
      set_name: r.set_name ?? null,
      number: r.number ?? null,
      finish: r.finish,
      condition: r.condition ?? null,
      market: r.prices.market ?? null,
      low: r.prices.low ?? null,
      mid: r.prices.mid ?? null,
      high: r.prices.high ?? null,
      direct_low: r.prices.direct_low ?? null,
    });
  }
  return { json: JSON.stringify(rows), count: rows.length };
}
