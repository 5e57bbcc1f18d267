import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.js";
import type { ByteSource } from "./feed-record.js";
import { fixture, inChunks, readAll } from "./feed-test-helpers.js";

const read = (input: ByteSource, batchSize?: number) => readAll((options) => parseCsv(input, options), batchSize);

describe("CSV price lists", () => {
  it("every kind of id, set + number, finishes, conditions and amounts as people write them; rows it cannot read are reported", async () => {
    const { records, problems } = await read(fixture("prices.csv"));
    expect(records).toEqual([
      {
        tcgplayer_product_id: 200350,
        name: "Venusaur & Snivy GX",
        set_name: "SM - Cosmic Eclipse",
        number: "1/236",
        finish: "holofoil",
        condition: "Near Mint",
        currency: "USD",
        prices: { market: 487, low: 349 },
      },
      {
        scryfall_id: "0000579f-7b35-4ed3-b44c-db2a538066fe",
        name: "Fury Sliver",
        set_name: "TSP",
        number: "157",
        finish: "foil",
        condition: "Lightly Played",
        currency: "USD",
        prices: { market: 190 },
      },
      {
        pokemontcg_id: "hgss1-1",
        name: "Arcanine",
        finish: "reverse_holofoil",
        condition: "Lightly Played",
        currency: "USD",
        prices: { market: 1361 },
      },
      { barcode: "0820650853531", name: "Pokémon Booster Box", finish: "normal", currency: "USD", prices: { market: 123450 } },
      {
        external_id: { source: "cardmarket", id: "13850" },
        name: "Fury Sliver",
        set_name: "tsp",
        number: "157",
        finish: "normal",
        currency: "EUR",
        prices: { market: 20 },
      },
      {
        name: "Will",
        set_name: "SM - Cosmic Eclipse",
        number: "208/236",
        finish: "reverse_holofoil",
        currency: "USD",
        prices: { market: 53, low: 25 },
      },
    ]);
    expect(problems).toEqual([
      "8: no id, and no set and number, to find the card by",
      '9: unknown condition "Mint-ish" (use: Near Mint, Lightly Played, Moderately Played, Heavily Played, Damaged, Sealed, or NM, LP, MP, HP, DMG)',
      '10: price "abc" is not an amount',
      '11: unknown finish "Gold" (use: normal, foil, holofoil, reverse_holofoil, etched, first_edition_normal, first_edition_holofoil)',
      '12: currency "Dollars" is not an ISO 4217 code (USD, EUR, ...)',
      "13: Too many fields: expected 13 fields but parsed 14",
      "14: no price",
    ]);
  });

  it("reads the kinds' own columns, a semicolon file, a byte order mark, and a character split between two chunks", async () => {
    const text =
      "\uFEFFBarcode;Name;Finish;Market;Low;High;Direct_Low\n0820650853531;Pokémon Booster Box;Reverse Holofoil;12.50;10;15;11.99\n";
    for (const size of [1, 7, 64 * 1024]) {
      const { records, problems } = await read(inChunks(text, size));
      expect(records).toEqual([
        {
          barcode: "0820650853531",
          name: "Pokémon Booster Box",
          finish: "reverse_holofoil",
          currency: "USD",
          prices: { market: 1250, low: 1000, high: 1500, direct_low: 1199 },
        },
      ]);
      expect(problems).toEqual([]);
    }
    const both = await read(Readable.from(["barcode,price,market\n1,1.00,1.00\n2,1.00,2.00\n"]));
    expect(both.records.map((r) => r.barcode)).toEqual(["1"]);
    expect(both.problems).toEqual(["3: price and market differ: give one of them"]);
    // A first edition written as TCGplayer names it, as our finish, or as its label.
    const first = await read(
      Readable.from(["barcode,finish,price\n1,1st Edition Holofoil,10\n2,first_edition_normal,5\n3,1st edition Normal,4\n"]),
    );
    expect(first.records.map((r) => r.finish)).toEqual(["first_edition_holofoil", "first_edition_normal", "first_edition_normal"]);
  });

  it("a file with no column to find cards by, no price column, or a quote never closed rejects", async () => {
    await expect(read(Readable.from(["name,price\nPikachu,1.00\n"]))).rejects.toThrow(/no column to find cards by/);
    await expect(read(Readable.from(["barcode,name\n1,Pikachu\n"]))).rejects.toThrow(/no price column/);
    await expect(read(Readable.from(['barcode,name,price\n1,"Pikachu,1.00\n2,Raichu,2.00\n']))).rejects.toThrow(
      /quote that is never closed \(row 2\)/,
    );
    // A header alone has nothing to price: no records, no problem.
    await expect(read(Readable.from(["barcode,price\n"]))).resolves.toMatchObject({ records: [], problems: [] });
  });

  it("a large file streams in order, in batches, whatever the chunks", async () => {
    const rows = 30_000;
    async function* file() {
      yield "tcgplayer_product_id,condition,price\n";
      for (let n = 1; n <= rows; n += 1_000) {
        let chunk = "";
        for (let i = n; i < n + 1_000; i++) chunk += `${i},${i % 2 ? "NM" : "LP"},${i}.01\n`;
        yield Buffer.from(chunk);
      }
    }
    const { batches, records, problems } = await read(file(), 2_500);
    expect(problems).toEqual([]);
    expect(batches.map((b) => b.length)).toEqual(Array(12).fill(2_500));
    expect(records.map((r) => r.tcgplayer_product_id)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    expect(records[1]).toEqual({
      tcgplayer_product_id: 2,
      finish: "normal",
      condition: "Lightly Played",
      currency: "USD",
      prices: { market: 201 },
    });
  });
});
