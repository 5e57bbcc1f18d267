import type { Finish, PriceKind } from "../../../../contract/market.js";
import type { Condition } from "../../../../contract/rules.js";

/** One printing's prices as a feed gives them, whatever its format: what the runs stage and match. */
export interface FeedRecord {
  tcgplayer_product_id?: number;
  scryfall_id?: string;
  pokemontcg_id?: string;
  barcode?: string;
  /** An id at another source, from a CSV column `id:<source>`. */
  external_id?: { source: string; id: string };
  name?: string;
  set_code?: string;
  set_name?: string;
  /** The collector number as printed ("4", "4/102", "025"). */
  number?: string;
  finish: Finish;
  /** Only when the feed prices by condition (a CSV); otherwise the prices are Near Mint's. */
  condition?: Condition;
  /** ISO 4217. */
  currency: string;
  /** Whole cents per kind; at least one. */
  prices: Partial<Record<PriceKind, number>>;
}

/** Reports a record the parser skipped: its row or element number and why. */
export type OnProblem = (row: number, message: string) => void;

const DOLLARS = /^\s*(\d{1,9})(?:\.(\d+))?\s*$/;

/**
 * A price as feeds write it (0.29, "0.29", "12", null) as whole cents, half a cent up; undefined
 * for no price (null, empty, negative, not a number). Read from the decimal digits, so 0.29 is
 * 29 cents, not 28.999...
 */
export function toCents(value: unknown): number | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : typeof value === "string" ? value : "";
  const m = DOLLARS.exec(text.includes("e") ? "" : text);
  if (!m) return undefined;
  const fraction = (m[2] ?? "").padEnd(3, "0");
  return Number(m[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
}

/** The prices that are there, or undefined when none is. */
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

/** Batches of records, `size` at a time, from records as they come. */
export async function* inBatches(records: AsyncIterable<FeedRecord>, size: number): AsyncIterable<FeedRecord[]> {
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
