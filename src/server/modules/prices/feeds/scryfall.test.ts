import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { fixture, readAll } from "./feed-test-helpers.js";
import { parseScryfall } from "./scryfall.js";

const read = (input: Readable, batchSize?: number) => readAll((options) => parseScryfall(input, options), batchSize);

describe("Scryfall bulk cards", () => {
  it("one market record per finish and currency priced; an etched printing takes its own TCGplayer id; tix is left out", async () => {
    const { records, problems } = await read(fixture("scryfall-cards.json"));
    const forest = {
      scryfall_id: "0000419b-0bba-4488-8f7a-6194544ce91e",
      name: "Forest",
      set_code: "blb",
      set_name: "Bloomburrow",
      number: "280",
      tcgplayer_product_id: 558404,
    };
    const fury = {
      scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
      name: "Fury Sliver",
      set_code: "tsp",
      set_name: "Time Spiral",
      number: "157",
      tcgplayer_product_id: 14240,
    };
    const approach = {
      scryfall_id: "6a058a72-ebfe-4957-a7dd-ee7471db2498",
      name: "Approach of the Second Sun",
      set_code: "sta",
      set_name: "Strixhaven Mystical Archive",
      number: "64",
      tcgplayer_product_id: 235469,
    };
    const force = {
      scryfall_id: "b769ba9e-2ac8-48a9-9f45-23a4ccd0cb96",
      name: "Force of Negation",
      set_code: "h1r",
      set_name: "Modern Horizons 1 Timeshifts",
      number: "9",
      tcgplayer_product_id: 239621,
    };
    expect(records).toEqual([
      { ...forest, finish: "normal", currency: "USD", prices: { market: 22 } },
      { ...forest, finish: "foil", currency: "USD", prices: { market: 40 } },
      { ...fury, finish: "normal", currency: "USD", prices: { market: 31 } },
      { ...fury, finish: "foil", currency: "USD", prices: { market: 190 } },
      { ...fury, finish: "normal", currency: "EUR", prices: { market: 20 } },
      { ...fury, finish: "foil", currency: "EUR", prices: { market: 102 } },
      { ...approach, finish: "normal", currency: "USD", prices: { market: 916 } },
      { ...approach, finish: "foil", currency: "USD", prices: { market: 1768 } },
      { ...approach, tcgplayer_product_id: 235468, finish: "etched", currency: "USD", prices: { market: 1073 } },
      { ...approach, finish: "normal", currency: "EUR", prices: { market: 1516 } },
      { ...approach, finish: "foil", currency: "EUR", prices: { market: 2051 } },
      { ...force, finish: "foil", currency: "USD", prices: { market: 8792 } },
      { ...force, tcgplayer_product_id: 239399, finish: "etched", currency: "USD", prices: { market: 5029 } },
      { ...force, finish: "foil", currency: "EUR", prices: { market: 8096 } },
    ]);
    expect(problems).toEqual([]);
  });

  it("reads an API list too; a card without an id or a prices object is reported", async () => {
    const list = {
      object: "list",
      has_more: false,
      data: [
        { object: "card", id: "a", name: "A", prices: { usd: "1.00", usd_foil: null } },
        { object: "card", name: "No id", prices: { usd: "1.00" } },
        { id: "base1-4", name: "Charizard", tcgplayer: { prices: {} } },
        { object: "card", id: "b", name: "No prices at all", prices: { usd: null, eur: null } },
      ],
    };
    const { records, problems } = await read(Readable.from([JSON.stringify(list)]));
    expect(records).toEqual([{ scryfall_id: "a", name: "A", finish: "normal", currency: "USD", prices: { market: 100 } }]);
    expect(problems).toEqual(["2: a card without an id", "3: card base1-4 has no prices object (is this a Scryfall cards file?)"]);
  });

  it("a large bulk file streams: the live heap stays at a batch or two however large the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "blez-feed-"));
    try {
      const path = join(dir, "default-cards.json");
      const out = createWriteStream(path);
      const cards = 200_000;
      out.write("[\n");
      for (let n = 0; n < cards; n += 1_000) {
        const lines: string[] = [];
        for (let i = n; i < n + 1_000; i++) {
          const card = {
            object: "card",
            id: `${i.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`,
            tcgplayer_id: i + 1,
            name: `Card ${i}`,
            set: "tst",
            set_name: "Test Set",
            collector_number: String(i),
            prices: { usd: "0.25", usd_foil: "1.5", usd_etched: null, eur: "0.19", eur_foil: null, tix: "0.01" },
          };
          lines.push(JSON.stringify(card));
        }
        out.write(`${n ? ",\n" : ""}${lines.join(",\n")}`);
      }
      out.end("\n]\n");
      await finished(out);
      const fileBytes = (await stat(path)).size;

      // The live heap, garbage collected first: without it the collector's own timing decides.
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const live = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      const before = live();
      let peak = 0;
      let records = 0;
      let batches = 0;
      for await (const batch of parseScryfall(createReadStream(path))) {
        records += batch.length;
        if (++batches % 60 === 0) peak = Math.max(peak, live() - before);
      }
      expect(records).toBe(cards * 3);
      expect(fileBytes).toBeGreaterThan(40 * 1024 * 1024);
      // Held whole, the cards would take more heap than the file's bytes; streamed, a batch or two.
      expect(peak).toBeLessThan(fileBytes / 3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
