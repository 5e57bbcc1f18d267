import Papa from "papaparse";
import { type FeedFormat, FINISH_LABELS, FINISHES, type Finish, PRICE_KINDS, type PriceKind } from "../../../../contract/market.js";
import { parseAmount } from "../../../../contract/money.js";
import { CONDITIONS, type Condition } from "../../../../contract/rules.js";
import { type FeedRecord, inBatches, type OnProblem, pricesOf } from "./feed-record.js";
import { jsonElements } from "./json-elements.js";

type Bytes = AsyncIterable<Uint8Array | string>;

/** What a run reads: one file, or a TCGCSV group's products and prices (products first: only their names and numbers are kept). */
export type FeedInput = Bytes | { products: Bytes; prices: Bytes };

export interface ParseOptions {
  onProblem?: OnProblem;
  /** Records per batch. */
  batch?: number;
}

const BATCH = 1_000;

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);
const int = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : undefined;
};

/** TCGplayer's printings (`subTypeName`) as finishes; a first edition is its printing's finish. */
function tcgplayerFinish(subType: string): Finish | undefined {
  const name = subType
    .toLowerCase()
    .replace(/^1st edition\s*/, "")
    .trim();
  if (name === "normal" || name === "") return "normal";
  if (name === "foil") return "foil";
  if (name === "holofoil") return "holofoil";
  if (name === "reverse holofoil") return "reverse_holofoil";
  if (name === "etched" || name === "etched foil") return "etched";
  return undefined;
}

/** TCGCSV (TCGplayer's data as tcgcsv.com serves it): a group's products, then its prices, each `{results: [...]}`. */
async function* tcgcsv(input: { products: Bytes; prices: Bytes }, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  const products = new Map<number, { name?: string; number?: string }>();
  let n = 0;
  for await (const value of jsonElements(input.products, "results")) {
    n++;
    const p = record(value);
    const id = int(p?.productId);
    if (!p || id === undefined) {
      onProblem(n, "a product without a productId");
      continue;
    }
    const extended = Array.isArray(p.extendedData) ? p.extendedData.map(record) : [];
    const number = text(extended.find((e) => e?.name === "Number")?.value);
    products.set(id, { name: text(p.name), number });
  }
  n = 0;
  for await (const value of jsonElements(input.prices, "results")) {
    n++;
    const p = record(value);
    const id = int(p?.productId);
    const finish = tcgplayerFinish(text(p?.subTypeName) ?? "");
    if (!p || id === undefined) {
      onProblem(n, "a price without a productId");
      continue;
    }
    if (!finish) {
      onProblem(n, `unknown printing ${JSON.stringify(p.subTypeName)}`);
      continue;
    }
    const prices = pricesOf({ market: p.marketPrice, low: p.lowPrice, mid: p.midPrice, high: p.highPrice, direct_low: p.directLowPrice });
    if (!prices) continue;
    const product = products.get(id);
    yield { tcgplayer_product_id: id, name: product?.name, number: product?.number, finish, currency: "USD", prices };
  }
}

/** Scryfall's bulk cards: one array of card objects, each with `prices.usd/usd_foil/usd_etched/eur/eur_foil` (strings or null). */
async function* scryfall(input: Bytes, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let n = 0;
  for await (const value of jsonElements(input, "data")) {
    n++;
    const card = record(value);
    const id = text(card?.id);
    const prices = record(card?.prices);
    if (!card || !id) {
      onProblem(n, "a card without an id");
      continue;
    }
    if (!prices) continue;
    const base = {
      scryfall_id: id,
      name: text(card.name),
      set_code: text(card.set),
      set_name: text(card.set_name),
      number: text(card.collector_number),
    };
    const tcgplayer = int(card.tcgplayer_id);
    const etchedId = int(card.tcgplayer_etched_id) ?? tcgplayer;
    const each: Array<[Finish, string, unknown, number | undefined]> = [
      ["normal", "USD", prices.usd, tcgplayer],
      ["foil", "USD", prices.usd_foil, tcgplayer],
      ["etched", "USD", prices.usd_etched, etchedId],
      ["normal", "EUR", prices.eur, tcgplayer],
      ["foil", "EUR", prices.eur_foil, tcgplayer],
    ];
    for (const [finish, currency, price, tcgplayerId] of each) {
      const market = pricesOf({ market: price });
      if (market) yield { ...base, tcgplayer_product_id: tcgplayerId, finish, currency, prices: market };
    }
  }
}

/** pokemontcg.io API v2 cards (`{data: [...]}` as the API answers, or an array as the data repositories keep them). */
const POKEMON_FINISHES: Record<string, Finish> = {
  normal: "normal",
  holofoil: "holofoil",
  reverseHolofoil: "reverse_holofoil",
  "1stEditionNormal": "normal",
  "1stEditionHolofoil": "holofoil",
  unlimitedHolofoil: "holofoil",
};

async function* pokemontcg(input: Bytes, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let n = 0;
  for await (const value of jsonElements(input, "data")) {
    n++;
    const card = record(value);
    const id = text(card?.id);
    if (!card || !id) {
      onProblem(n, "a card without an id");
      continue;
    }
    const set = record(card.set);
    const base = {
      pokemontcg_id: id,
      name: text(card.name),
      set_code: text(set?.id),
      set_name: text(set?.name),
      number: text(card.number),
    };
    const tcgplayer = record(record(card.tcgplayer)?.prices) ?? {};
    for (const [printing, values] of Object.entries(tcgplayer)) {
      const finish = POKEMON_FINISHES[printing];
      const v = record(values);
      if (!finish || !v) {
        onProblem(n, `unknown printing ${JSON.stringify(printing)}`);
        continue;
      }
      const prices = pricesOf({ market: v.market, low: v.low, mid: v.mid, high: v.high, direct_low: v.directLow });
      if (prices) yield { ...base, finish, currency: "USD", prices };
    }
    // Cardmarket's trend price is its market price; its low price, the low.
    const cardmarket = record(record(card.cardmarket)?.prices);
    const eur = cardmarket && pricesOf({ market: cardmarket.trendPrice, low: cardmarket.lowPrice });
    if (eur) yield { ...base, finish: "normal", currency: "EUR", prices: eur };
  }
}

const CONDITION_NAMES = new Map<string, Condition>([
  ...CONDITIONS.map((c) => [c.toLowerCase(), c] as [string, Condition]),
  ["nm", "Near Mint"],
  ["lp", "Lightly Played"],
  ["mp", "Moderately Played"],
  ["hp", "Heavily Played"],
  ["dmg", "Damaged"],
]);
const FINISH_NAMES = new Map<string, Finish>(
  FINISHES.flatMap((f) => [
    [f, f],
    [FINISH_LABELS[f].toLowerCase(), f],
  ]),
);
const ID_COLUMNS = ["tcgplayer_product_id", "scryfall_id", "pokemontcg_id", "barcode"] as const;

/** A plain CSV: an id column (or set + number), optional finish, condition, currency, and `price` and/or the kinds' columns. */
async function* csv(input: Bytes, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  const rows: Array<Record<string, string>> = [];
  let failure: Error | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  parser.on("data", (row: Record<string, string>) => {
    rows.push(row);
    wake?.();
  });
  parser.on("error", (err: Error) => {
    failure = err;
    wake?.();
  });
  parser.on("end", () => {
    done = true;
    wake?.();
  });
  const feeding = (async () => {
    for await (const chunk of input) {
      if (!parser.write(chunk)) await new Promise((resolve) => parser.once("drain", resolve));
    }
    parser.end();
  })().catch((err: Error) => {
    failure = err;
    wake?.();
  });
  let row = 1;
  for (;;) {
    if (failure) throw new Error(`The CSV file could not be read: ${failure.message}`);
    const next = rows.shift();
    if (next === undefined) {
      if (done) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
      continue;
    }
    row++;
    const r = next;
    const external = Object.keys(r).find((k) => k.startsWith("id:") && text(r[k]));
    const ids = {
      tcgplayer_product_id: int(r.tcgplayer_product_id),
      scryfall_id: text(r.scryfall_id),
      pokemontcg_id: text(r.pokemontcg_id),
      barcode: text(r.barcode),
      external_id: external ? { source: external.slice(3).trim(), id: text(r[external]) ?? "" } : undefined,
    };
    const set = text(r.set) ?? text(r.set_name);
    const number = text(r.number) ?? text(r.card_number);
    if (!ID_COLUMNS.some((c) => ids[c] !== undefined) && !ids.external_id && !(set && number)) {
      onProblem(row, "no id, and no set and number, to find the card by");
      continue;
    }
    const finish = FINISH_NAMES.get((text(r.finish) ?? "normal").toLowerCase());
    if (!finish) {
      onProblem(row, `unknown finish ${JSON.stringify(r.finish)} (use: ${FINISHES.join(", ")})`);
      continue;
    }
    const conditionText = text(r.condition);
    const condition = conditionText ? CONDITION_NAMES.get(conditionText.toLowerCase()) : undefined;
    if (conditionText && !condition) {
      onProblem(row, `unknown condition ${JSON.stringify(conditionText)} (use: ${CONDITIONS.join(", ")}, or NM, LP, MP, HP, DMG)`);
      continue;
    }
    const prices: Partial<Record<PriceKind, number>> = {};
    let bad: string | undefined;
    for (const [column, kind] of [["price", "market"], ...PRICE_KINDS.map((k) => [k, k])] as Array<[string, PriceKind]>) {
      const cell = text(r[column]);
      if (cell === undefined) continue;
      const cents = parseAmount(cell);
      if (cents === undefined) bad = `${column} ${JSON.stringify(cell)} is not an amount`;
      else prices[kind] = cents;
    }
    if (bad || Object.keys(prices).length === 0) {
      onProblem(row, bad ?? "no price");
      continue;
    }
    const currency = (text(r.currency) ?? "USD").toUpperCase();
    yield {
      ...Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)),
      name: text(r.name),
      set_name: set,
      number,
      finish,
      condition,
      currency,
      prices,
    } as FeedRecord;
  }
  await feeding;
}

/** A feed's records in batches, as its file streams in: never the whole file held. */
export function parseFeed(format: FeedFormat, input: FeedInput, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  const onProblem = options.onProblem ?? (() => {});
  const size = options.batch ?? BATCH;
  const pair = typeof input === "object" && input !== null && "products" in input && "prices" in input;
  if (format === "tcgcsv") {
    if (!pair) throw new Error("A TCGCSV feed is read from its products and its prices");
    return inBatches(tcgcsv(input, onProblem), size);
  }
  if (pair) throw new Error("Only a TCGCSV feed has products and prices apart");
  const bytes = input as Bytes;
  if (format === "scryfall") return inBatches(scryfall(bytes, onProblem), size);
  if (format === "pokemontcg") return inBatches(pokemontcg(bytes, onProblem), size);
  return inBatches(csv(bytes, onProblem), size);
}
