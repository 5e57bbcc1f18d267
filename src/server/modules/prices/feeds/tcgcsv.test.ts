import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { fixture, readAll } from "./feed-test-helpers.js";
import { findTcgcsvGroup, parseTcgcsv, type TcgcsvInput } from "./tcgcsv.js";

const answer = (results: unknown[]) => Readable.from([JSON.stringify({ success: true, errors: [], totalItems: results.length, results })]);
const read = (input: TcgcsvInput, batchSize?: number) => readAll((options) => parseTcgcsv(input, options), batchSize);

describe("TCGCSV", () => {
  it("reads a group's products then its prices: one USD record per priced printing, with the group as the set", async () => {
    const group = await findTcgcsvGroup(fixture("tcgcsv-groups.json"), 2534);
    expect(group).toEqual({ groupId: 2534, name: "SM - Cosmic Eclipse", abbreviation: "SM12" });
    const { records, problems } = await read({ products: fixture("tcgcsv-products.json"), prices: fixture("tcgcsv-prices.json"), group });
    const set = { set_code: "SM12", set_name: "SM - Cosmic Eclipse" };
    const will = { tcgplayer_product_id: 201328, name: "Will", ...set, number: "208/236", currency: "USD" };
    expect(records).toEqual([
      {
        tcgplayer_product_id: 200350,
        name: "Venusaur & Snivy GX",
        ...set,
        number: "1/236",
        finish: "holofoil",
        currency: "USD",
        prices: { market: 487, low: 349, mid: 550, high: 2499, direct_low: 469 },
      },
      // 0.29 is 29 cents; directLowPrice null is left out.
      { ...will, finish: "normal", prices: { market: 29, low: 5, mid: 25, high: 250 } },
      { ...will, finish: "reverse_holofoil", prices: { market: 53, low: 25, mid: 60, high: 500, direct_low: 55 } },
      // The Full Art's holofoil has every price null: no record.
    ]);
    expect(problems).toEqual([]);
    // The category's groups list instead of the group: the products' group is found in it.
    const listed = await read({
      products: fixture("tcgcsv-products.json"),
      prices: fixture("tcgcsv-prices.json"),
      groups: fixture("tcgcsv-groups.json"),
    });
    expect(listed.records).toEqual(records);
  });

  it("without the group, records have no set; a group the products are not of is not theirs", async () => {
    const plain = await read({ products: fixture("tcgcsv-products.json"), prices: fixture("tcgcsv-prices.json") });
    expect(plain.records.map((r) => [r.set_code, r.set_name])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    const other = await read({
      products: fixture("tcgcsv-products.json"),
      prices: fixture("tcgcsv-prices.json"),
      group: { groupId: 23237, name: "SV: Scarlet & Violet 151", abbreviation: "MEW" },
    });
    expect(other.records.map((r) => r.set_code)).toEqual([undefined, undefined, undefined]);
    expect(await findTcgcsvGroup(fixture("tcgcsv-groups.json"), 1)).toBeUndefined();
  });

  it("a first edition is its own finish, never the unlimited card's; a limited printing is the plain one only when it is the card's only one", async () => {
    const products = answer([
      { productId: 1, name: "Blaine's Charizard", extendedData: [{ name: "Number", value: "2/132" }] },
      { productId: 2, name: "Dark Magician", extendedData: [{ name: "Number", value: "LOB-EN005" }] },
      { productId: 3, name: "Ninja", extendedData: [] },
      { productId: 4, name: "Sol Ring (Foil Etched)", extendedData: [{ name: "Number", value: "472" }] },
    ]);
    const prices = answer([
      { productId: 1, marketPrice: 699.99, subTypeName: "1st Edition Holofoil" },
      { productId: 1, marketPrice: 594.19, subTypeName: "Unlimited Holofoil" },
      { productId: 2, marketPrice: 120, subTypeName: "1st Edition" },
      { productId: 3, marketPrice: 9, subTypeName: "Limited" },
      { productId: 3, marketPrice: 12, subTypeName: "1st Edition" },
      // An unlimited printing nobody sells still keeps the limited one's price off the card.
      { productId: 3, marketPrice: null, subTypeName: "Unlimited" },
      { productId: 4, marketPrice: 4.5, subTypeName: "Foil" },
      { productId: 5, marketPrice: 3, subTypeName: "Limited" },
      { productId: 6, marketPrice: 80, subTypeName: "1st Edition Normal" },
      { productId: 6, marketPrice: 20, subTypeName: "Unlimited Normal" },
      { productId: 6, marketPrice: 7, subTypeName: "1st Edition Reverse Holofoil" },
    ]);
    const { records, problems } = await read({ products, prices });
    expect(records.map((r) => [r.tcgplayer_product_id, r.finish, r.prices.market])).toEqual([
      [1, "first_edition_holofoil", 69999],
      [1, "holofoil", 59419],
      [2, "first_edition_normal", 12000],
      [3, "first_edition_normal", 1200],
      [4, "etched", 450],
      [5, "normal", 300],
      [6, "first_edition_normal", 8000],
      [6, "normal", 2000],
    ]);
    expect(problems).toEqual(['11: prices: product 6 has a printing we do not know: "1st Edition Reverse Holofoil"']);
  });

  it("reports a price it cannot read, numbered within its file, and reads on", async () => {
    const products = answer([{ name: "no id" }, { productId: 7, name: "Seven" }]);
    const prices = answer([
      { productId: 7, marketPrice: 1, subTypeName: "Normal" },
      { marketPrice: 1, subTypeName: "Normal" },
      { productId: 8, marketPrice: 2, subTypeName: "Gold Star" },
      { productId: 8, marketPrice: 2, subTypeName: "Normal" },
      { productId: 7, marketPrice: 3, subTypeName: "Reverse Holofoil" },
      "not an object",
    ]);
    const { records, problems } = await read({ products, prices });
    expect(records).toEqual([
      { tcgplayer_product_id: 7, name: "Seven", finish: "normal", currency: "USD", prices: { market: 100 } },
      // A price for a product the products file does not have is still the product's price.
      { tcgplayer_product_id: 8, finish: "normal", currency: "USD", prices: { market: 200 } },
    ]);
    expect(problems).toEqual([
      "1: products: a product without a productId",
      "2: prices: a price without a productId",
      '3: prices: product 8 has a printing we do not know: "Gold Star"',
      "5: prices: product 7 comes again after other products' prices: left out",
      "6: prices: a price without a productId",
    ]);
  });

  it("an answer that failed, or that is not a products list, rejects; the prices are then not read", async () => {
    const failed = Readable.from([JSON.stringify({ success: false, errors: ["Group 99999 not found"], results: [] })]);
    const prices = answer([]);
    await expect(read({ products: failed, prices })).rejects.toThrow(
      "TCGCSV products: The source answered that it failed: Group 99999 not found",
    );
    expect(prices.destroyed).toBe(true);
    const wrong = Readable.from([JSON.stringify({ object: "list", data: [] })]);
    await expect(read({ products: answer([]), prices: wrong })).rejects.toThrow(/^TCGCSV prices: .* without a "results" list/);
  });
});
