import type { Finish, PriceKind } from "../../../../contract/market.js";
import { type Condition, MONEY_MAX_CENTS } from "../../../../contract/rules.js";

/** One printing's prices as a feed gives them, whatever its format: what every parser yields. */
export interface FeedRecord {
  /** Ids the source knows this printing by (any that the source gives). */
  tcgplayer_product_id?: number;
  scryfall_id?: string;
  pokemontcg_id?: string;
  barcode?: string;
  /** Another id from a CSV column `id:<source>` (e.g. `id:cardmarket`): key is the source. */
  external_id?: { source: string; id: string };
  name?: string;
  /** Set code and/or name as the source gives them (e.g. "sv3pt5" / "151", "MH3" / "Modern Horizons 3"). */
  set_code?: string;
  set_name?: string;
  /** Collector number as printed ("4", "4/102", "025"). */
  number?: string;
  finish: Finish;
  /** Only when the source prices by condition (the CSV); otherwise the price is for Near Mint. */
  condition?: Condition;
  /** ISO 4217, "USD" / "EUR". */
  currency: string;
  /** Whole cents per kind; at least one. */
  prices: Partial<Record<PriceKind, number>>;
}

/** Reports a record a parser skipped: its row (CSV, header = 1) or element number (JSON, first = 1) and why. */
export type OnProblem = (row: number, message: string) => void;

/** A file's bytes as they stream in: a Node `Readable`, a web stream, or any async iterable of chunks. */
export type ByteSource = AsyncIterable<Uint8Array | string>;

export interface ParseOptions {
  /** Told of each record that cannot be read; the rest are read on. */
  onProblem?: OnProblem;
  /** Records per batch (default 1,000). */
  batchSize?: number;
}

export const DEFAULT_BATCH_SIZE = 1_000;

const DOLLARS = /^\s*(\d{1,9})(?:\.(\d+))?\s*$/;

/**
 * A price as feeds write it (0.29, "0.29", "12", null) in whole cents, rounded half up at the
 * third decimal (1.005 -> 101). Read from the decimal digits the source wrote (a number's shortest
 * round-trip text), so 0.29 is 29 cents, never 28.999... Undefined for no price: null, empty,
 * negative, not a number, over the largest amount we store, and zero (several sources write 0 for
 * "no price", as pokemontcg.io's Cardmarket block does, and no card is worth nothing).
 */
export function toCents(value: unknown): number | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
    // Exponent forms are below a millionth or above 1e21: no price either way.
    if (text.includes("e")) return undefined;
  } else if (typeof value === "string") text = value;
  else return undefined;
  const m = DOLLARS.exec(text);
  if (!m) return undefined;
  const fraction = (m[2] ?? "").padEnd(3, "0");
  const cents = Number(m[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return cents > 0 && cents <= MONEY_MAX_CENTS ? cents : undefined;
}

/** The prices that are there (see toCents), or undefined when none is. */
export function pricesOf(values: Partial<Record<PriceKind, unknown>>): Partial<Record<PriceKind, number>> | undefined {
  const prices: Partial<Record<PriceKind, number>> = {};
  let any = false;
  for (const [kind, value] of Object.entries(values) as Array<[PriceKind, unknown]>) {
    const cents = toCents(value);
    if (cents === undefined) continue;
    prices[kind] = cents;
    any = true;
  }
  return any ? prices : undefined;
}

/** Batches of at most `size` records, from records as they come. */
export async function* inBatches(records: AsyncIterable<FeedRecord>, size = DEFAULT_BATCH_SIZE): AsyncIterable<FeedRecord[]> {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`A batch holds at least one record (asked for ${size})`);
  let batch: FeedRecord[] = [];
  for await (const record of records) {
    batch.push(record);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A JSON value as an object with string keys, or undefined. */
export const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A non-empty trimmed string, or undefined. */
export const textOf = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** A positive whole number that fits the database's integer ids (a number or digits), or undefined. */
export const idOf = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : undefined;
};
