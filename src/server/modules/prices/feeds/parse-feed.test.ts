import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { FeedFormat } from "../../../../contract/market.js";
import { type FeedRecord, toCents } from "./feed-record.js";
import { type FeedInput, parseFeed } from "./parse-feed.js";

/** The parsers on files in each source's own format (fixtures/README.md says where they come from). */

const fixture = (name: string) => createReadStream(new URL(`./fixtures/${name}`, import.meta.url));

async function read(format: FeedFormat, input: FeedInput, batch?: number) {
  const problems: string[] = [];
  const batches: FeedRecord[][] = [];
  for await (const b of parseFeed(format, input, { batch, onProblem: (row, message) => problems.push(`${row}: ${message}`) }))
    batches.push(b);
  return { records: batches.flat(), batches, problems };
}

describe("feed parsers", () => {
  it("toCents reads dollars from their digits, half a cent up; no price is undefined", () => {
    expect([0.29, "0.29", 1.005, "12", 359.27, 0.1 + 0.2].map(toCents)).toEqual([29, 29, 101, 1200, 35927, 30]);
    expect([null, undefined, "", -1, "abc", Number.NaN, 1e21].map(toCents)).toEqual(Array(7).fill(undefined));
  });

  it("TCGCSV: products give names and numbers, prices one record per printing; a first edition is its finish", async () => {
    const { records, problems } = await read("tcgcsv", {
      products: fixture("tcgcsv-products.json"),
      prices: fixture("tcgcsv-prices.json"),
    });
    expect(problems).toEqual([]);
    expect(records).toEqual([
      {
        tcgplayer_product_id: 42346,
        name: "Charizard",
        number: "004/102",
        finish: "holofoil",
        currency: "USD",
        prices: { market: 35927, low: 28999, mid: 38514, high: 149999 },
      },
      {
        tcgplayer_product_id: 42346,
        name: "Charizard",
        number: "004/102",
        finish: "holofoil",
        currency: "USD",
        prices: { market: 229550, low: 185000, mid: 245000, high: 499999 },
      },
      {
        tcgplayer_product_id: 42360,
        name: "Pikachu",
        number: "058/102",
        finish: "normal",
        currency: "USD",
        prices: { market: 98, low: 50, mid: 129, high: 999, direct_low: 85 },
      },
      // The reverse holofoil with no price is left out; the sealed pack has no number.
      {
        tcgplayer_product_id: 42999,
        name: "Base Set Booster Pack",
        number: undefined,
        finish: "normal",
        currency: "USD",
        prices: { market: 22995, low: 19999, mid: 24000, high: 40000 },
      },
    ]);
  });

  it("Scryfall bulk: one record per finish and currency with a price; the etched printing takes its own TCGplayer id", async () => {
    const { records, problems } = await read("scryfall", fixture("scryfall-cards.json"));
    expect(problems).toEqual([]);
    const fury = {
      scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
      name: "Fury Sliver",
      set_code: "tsp",
      set_name: "Time Spiral",
      number: "157",
      tcgplayer_product_id: 14240,
    };
    const skyfish = {
      scryfall_id: "00006596-1166-4a79-8443-ca9f82e6db4e",
      name: "Mystic Skyfish",
      set_code: "cmr",
      set_name: "Commander Legends",
      number: "76",
    };
    expect(records).toEqual([
      { ...fury, finish: "normal", currency: "USD", prices: { market: 29 } },
      { ...fury, finish: "foil", currency: "USD", prices: { market: 201 } },
      { ...fury, finish: "normal", currency: "EUR", prices: { market: 19 } },
      { ...fury, finish: "foil", currency: "EUR", prices: { market: 105 } },
      { ...skyfish, tcgplayer_product_id: 227427, finish: "normal", currency: "USD", prices: { market: 3 } },
      { ...skyfish, tcgplayer_product_id: 227427, finish: "foil", currency: "USD", prices: { market: 15 } },
      { ...skyfish, tcgplayer_product_id: 227428, finish: "etched", currency: "USD", prices: { market: 40 } },
    ]);
  });

  it("pokemontcg.io: TCGplayer prices per printing in USD, Cardmarket's trend and low in EUR; an API page or a bare array", async () => {
    const { records } = await read("pokemontcg", fixture("pokemontcg-cards.json"));
    const charizard = { pokemontcg_id: "base1-4", name: "Charizard", set_code: "base1", set_name: "Base", number: "4" };
    const pikachu = { pokemontcg_id: "sv3pt5-25", name: "Pikachu", set_code: "sv3pt5", set_name: "151", number: "25" };
    expect(records).toEqual([
      { ...charizard, finish: "holofoil", currency: "USD", prices: { market: 35927, low: 28999, mid: 38514, high: 149999 } },
      { ...charizard, finish: "normal", currency: "EUR", prices: { market: 32219, low: 9500 } },
      { ...pikachu, finish: "normal", currency: "USD", prices: { market: 33, low: 15, mid: 40, high: 499, direct_low: 25 } },
      { ...pikachu, finish: "reverse_holofoil", currency: "USD", prices: { market: 112, low: 69, mid: 125, high: 750, direct_low: 100 } },
    ]);
    const page = JSON.parse(await new Response(Readable.toWeb(fixture("pokemontcg-cards.json")) as ReadableStream).text()) as {
      data: unknown[];
    };
    const bare = await read("pokemontcg", Readable.from([JSON.stringify(page.data)]));
    expect(bare.records).toEqual(records);
  });

  it("CSV: every kind of id, set + number, finishes and conditions as people write them; bad rows reported, not thrown", async () => {
    const { records, problems } = await read("csv", fixture("prices.csv"));
    expect(records).toEqual([
      {
        tcgplayer_product_id: 42360,
        name: "Pikachu",
        set_name: "Base",
        number: "58",
        finish: "normal",
        condition: "Near Mint",
        currency: "USD",
        prices: { market: 98, low: 50 },
      },
      {
        scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
        name: "Fury Sliver",
        set_name: "TSP",
        number: "157",
        finish: "foil",
        condition: "Lightly Played",
        currency: "USD",
        prices: { market: 180 },
      },
      {
        barcode: "0820650853531",
        name: "Sealed box",
        set_name: undefined,
        number: undefined,
        finish: "normal",
        condition: undefined,
        currency: "USD",
        prices: { market: 123450 },
      },
      {
        external_id: { source: "cardmarket", id: "13850" },
        name: "Fury Sliver",
        set_name: "tsp",
        number: "157",
        finish: "normal",
        condition: undefined,
        currency: "EUR",
        prices: { market: 19 },
      },
    ]);
    expect(problems).toEqual([
      "6: no id, and no set and number, to find the card by",
      expect.stringMatching(/^7: unknown condition "Mint-ish"/),
      '8: price "abc" is not an amount',
    ]);
  });

  it("a broken file rejects with what is wrong, after the records before the break", async () => {
    const text = '[{"id":"a","name":"A","prices":{"usd":"1.00"}},{"id":"b","name":';
    const seen: FeedRecord[] = [];
    const reading = (async () => {
      for await (const batch of parseFeed("scryfall", Readable.from([text]), { batch: 1 })) seen.push(...batch);
    })();
    await expect(reading).rejects.toThrow(/not valid JSON/);
    expect(seen.map((r) => r.scryfall_id)).toEqual(["a"]);
    await expect(read("scryfall", Readable.from(["<html>Not found</html>"]))).rejects.toThrow(/not JSON/);
    await expect(read("csv", Readable.from(["price\n"]))).resolves.toMatchObject({ records: [] });
  });

  it("batches hold at most the batch size", async () => {
    const { batches } = await read("scryfall", fixture("scryfall-cards.json"), 3);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
  });

  it("a large bulk file streams: the heap stays far under the file's size", async () => {
    const dir = await mkdtemp(join(tmpdir(), "blez-feed-"));
    try {
      const path = join(dir, "bulk.json");
      const out = createWriteStream(path);
      const pad = "x".repeat(1_500);
      out.write("[");
      const cards = 60_000;
      for (let n = 0; n < cards; n++) {
        const card = {
          id: `card-${n}`,
          name: `Card ${n}`,
          set: "set",
          collector_number: String(n),
          oracle_text: pad,
          prices: { usd: "1.25" },
        };
        out.write(`${n ? "," : ""}${JSON.stringify(card)}`);
      }
      out.end("]");
      await finished(out);
      const fileBytes = (await import("node:fs")).statSync(path).size;
      // What the heap holds, garbage collected first (the collector runs only when it likes otherwise).
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const live = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      const before = live();
      let peak = before;
      let count = 0;
      for await (const batch of parseFeed("scryfall", createReadStream(path))) {
        count += batch.length;
        if (count % 10_000 === 0) peak = Math.max(peak, live());
      }
      expect(count).toBe(cards);
      expect(fileBytes).toBeGreaterThan(90 * 1024 * 1024);
      // Held whole, the file would be over 90 MB of heap; streamed, what stays is a batch or two.
      expect(peak - before).toBeLessThan(fileBytes / 10);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
