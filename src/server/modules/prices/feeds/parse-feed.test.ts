import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FEED_FORMATS } from "../../../../contract/market.js";
import type { FeedRecord } from "./feed-record.js";
import { fixture, inChunks, readAll } from "./feed-test-helpers.js";
import { type FeedInput, parseFeed } from "./parse-feed.js";

const one = (text: string) => Readable.from([text]);

describe("parseFeed", () => {
  it("reads each format's fixture through the one entry point, in batches of the size asked", async () => {
    const inputs: Record<(typeof FEED_FORMATS)[number], () => FeedInput> = {
      tcgcsv: () => ({ products: fixture("tcgcsv-products.json"), prices: fixture("tcgcsv-prices.json") }),
      scryfall: () => fixture("scryfall-cards.json"),
      pokemontcg: () => fixture("pokemontcg-cards.json"),
      csv: () => fixture("prices.csv"),
    };
    const counts: Record<string, number[]> = {};
    for (const format of FEED_FORMATS) {
      const { batches } = await readAll((options) => parseFeed(format, inputs[format](), options), 4);
      counts[format] = batches.map((b) => b.length);
    }
    expect(counts).toEqual({ tcgcsv: [3], scryfall: [4, 4, 4, 2], pokemontcg: [4, 4, 2], csv: [4, 2] });
    const { batches } = await readAll((options) => parseFeed("scryfall", fixture("scryfall-cards.json"), options));
    expect(batches.map((b) => b.length)).toEqual([14]);
  });

  it("a TCGCSV feed needs its products and prices, and only it comes as two files", () => {
    expect(() => parseFeed("tcgcsv", one("[]"))).toThrow(/products and its prices/);
    expect(() => parseFeed("scryfall", { products: one("[]"), prices: one("[]") })).toThrow(/Only a TCGCSV feed/);
  });

  it("a broken file rejects, saying what and where, after yielding the records before the break", async () => {
    const text = `[${JSON.stringify({ id: "a", prices: { usd: "1.00" } })},${JSON.stringify({ id: "b", prices: { usd: "2.00" } })},{"id":"c","prices":`;
    const seen: FeedRecord[] = [];
    const reading = (async () => {
      for await (const batch of parseFeed("scryfall", inChunks(text, 16), { batchSize: 1 })) seen.push(...batch);
    })();
    await expect(reading).rejects.toThrow(
      `The file ends before its JSON does (after 2 elements, by byte ${Buffer.byteLength(text)}): is it cut short?`,
    );
    expect(seen.map((r) => r.scryfall_id)).toEqual(["a", "b"]);

    await expect(readAll((o) => parseFeed("scryfall", one('[{"id":"a","prices":{}},}'), o))).rejects.toThrow(
      /^The file is not valid JSON \(after 1 element, by byte 25\): Unexpected RIGHT_BRACE/,
    );
    await expect(readAll((o) => parseFeed("pokemontcg", one("\n  <html><body>Not Found</body></html>"), o))).rejects.toThrow(
      'The file is not JSON: it starts with "<html><body>Not Foun"',
    );
    await expect(readAll((o) => parseFeed("scryfall", one("  \n"), o))).rejects.toThrow("The file is empty");
    // The wrong top-level shape: a TCGCSV answer given as a Scryfall file, an object where a list belongs.
    await expect(readAll((o) => parseFeed("scryfall", fixture("tcgcsv-prices.json"), o))).rejects.toThrow(
      'The file is a JSON object without a "data" list: not a feed of this format',
    );
    await expect(readAll((o) => parseFeed("pokemontcg", one('{"data":{"id":"base1-4"}}'), o))).rejects.toThrow(/without a "data" list/);
  });
});
