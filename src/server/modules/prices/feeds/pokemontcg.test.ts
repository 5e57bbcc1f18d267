import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { fixture, readAll } from "./feed-test-helpers.js";
import { parsePokemontcg } from "./pokemontcg.js";

const read = (input: Readable) => readAll((options) => parsePokemontcg(input, options));

describe("pokemontcg.io cards", () => {
  it("TCGplayer's prices per printing in USD, Cardmarket's trend and low in EUR; a first edition is its own finish", async () => {
    const { records, problems } = await read(fixture("pokemontcg-cards.json"));
    const arcanine = { pokemontcg_id: "hgss1-1", name: "Arcanine", set_code: "hgss1", set_name: "HeartGold & SoulSilver", number: "1" };
    const charizard = { pokemontcg_id: "gym2-2", name: "Blaine's Charizard", set_code: "gym2", set_name: "Gym Challenge", number: "2" };
    const pikachu = {
      pokemontcg_id: "smp-SM109",
      name: "Ash's Pikachu",
      set_code: "smp",
      set_name: "SM Black Star Promos",
      number: "SM109",
    };
    expect(records).toEqual([
      { ...arcanine, finish: "holofoil", currency: "USD", prices: { market: 2212, low: 849, mid: 1950, high: 3979, direct_low: 1399 } },
      { ...arcanine, finish: "reverse_holofoil", currency: "USD", prices: { market: 1361, low: 1634, mid: 2383, high: 4650 } },
      // A holo rare's regular Cardmarket price is its holofoil's; the reverse holo has its own.
      { ...arcanine, finish: "holofoil", currency: "EUR", prices: { market: 521, low: 59 } },
      { ...arcanine, finish: "reverse_holofoil", currency: "EUR", prices: { market: 510, low: 59 } },
      // 1stEditionHolofoil is the first edition's own finish; unlimitedHolofoil is the holofoil.
      { ...charizard, finish: "first_edition_holofoil", currency: "USD", prices: { market: 69999, low: 69669, mid: 200000, high: 209999 } },
      { ...charizard, finish: "holofoil", currency: "USD", prices: { market: 59419, low: 43799, mid: 73412, high: 149999 } },
      { ...charizard, finish: "holofoil", currency: "EUR", prices: { market: 63065, low: 7000 } },
      { ...pikachu, finish: "normal", currency: "USD", prices: { market: 2129, low: 798, mid: 1730, high: 3000, direct_low: 1797 } },
      { ...pikachu, finish: "normal", currency: "EUR", prices: { market: 731, low: 300 } },
      // Cardmarket's reverseHoloLow is 0 (no price): only its trend is read.
      { ...pikachu, finish: "reverse_holofoil", currency: "EUR", prices: { market: 230 } },
      // Celebi has no prices at all: no record, and no problem.
    ]);
    expect(problems).toEqual([]);
  });

  it("reads a bare array of cards (as the data repositories keep them) the same; reports what it cannot read", async () => {
    const page = JSON.parse(await readFile(new URL("./fixtures/pokemontcg-cards.json", import.meta.url), "utf8")) as { data: unknown[] };
    const bare = await read(Readable.from([JSON.stringify(page.data)]));
    expect(bare.records).toEqual((await read(fixture("pokemontcg-cards.json"))).records);

    const odd = [
      { name: "No id" },
      {
        id: "x-1",
        name: "Odd",
        tcgplayer: {
          prices: { shinyHolofoil: { market: 5 }, normal: { market: 1 }, holofoil: "cheap", "1stEditionReverseHolofoil": { market: 9 } },
        },
      },
      // A first edition only: its own finish, and Cardmarket's regular price is still the (holofoil) card's.
      {
        id: "base1-4",
        name: "Charizard",
        tcgplayer: { prices: { "1stEditionHolofoil": { market: 9000 }, "1stEditionNormal": { market: 50 } } },
      },
    ];
    const { records, problems } = await read(Readable.from([JSON.stringify({ data: odd })]));
    expect(records).toEqual([
      { pokemontcg_id: "x-1", name: "Odd", finish: "normal", currency: "USD", prices: { market: 100 } },
      { pokemontcg_id: "base1-4", name: "Charizard", finish: "first_edition_holofoil", currency: "USD", prices: { market: 900000 } },
      { pokemontcg_id: "base1-4", name: "Charizard", finish: "first_edition_normal", currency: "USD", prices: { market: 5000 } },
    ]);
    expect(problems).toEqual([
      "1: a card without an id",
      '2: card x-1 has a TCGplayer printing we do not know: "shinyHolofoil"',
      "2: card x-1: TCGplayer's holofoil prices are not an object",
      '2: card x-1 has a TCGplayer printing we do not know: "1stEditionReverseHolofoil"',
    ]);
  });
});
