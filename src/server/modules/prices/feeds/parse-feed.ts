import type { FeedFormat } from "../../../../contract/market.js";
import { parseCsv } from "./csv.js";
import type { ByteSource, FeedRecord, ParseOptions } from "./feed-record.js";
import { parsePokemontcg } from "./pokemontcg.js";
import { parseScryfall } from "./scryfall.js";
import { parseTcgcsv, type TcgcsvInput } from "./tcgcsv.js";

export type { ByteSource, FeedRecord, OnProblem, ParseOptions } from "./feed-record.js";
export { findTcgcsvGroup, type TcgcsvGroup, type TcgcsvInput } from "./tcgcsv.js";
export { parseCsv, parsePokemontcg, parseScryfall, parseTcgcsv };

/** What a feed is read from: one file, or for TCGCSV a group's products and prices (and optionally the group). */
export type FeedInput = ByteSource | TcgcsvInput;

const isTcgcsvInput = (input: FeedInput): input is TcgcsvInput =>
  typeof input === "object" && input !== null && "products" in input && "prices" in input;

/**
 * A feed's records in batches, as its file streams in: never the whole file held. Rejects the
 * iteration, saying what and where, when the file is not of the format; a record that cannot be
 * read is told to `options.onProblem` and left out.
 */
export function parseFeed(format: FeedFormat, input: FeedInput, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  if (format === "tcgcsv") {
    if (!isTcgcsvInput(input)) throw new Error("A TCGCSV feed is read from its products and its prices");
    return parseTcgcsv(input, options);
  }
  if (isTcgcsvInput(input)) throw new Error("Only a TCGCSV feed comes as products and prices");
  switch (format) {
    case "scryfall":
      return parseScryfall(input, options);
    case "pokemontcg":
      return parsePokemontcg(input, options);
    case "csv":
      return parseCsv(input, options);
  }
}
