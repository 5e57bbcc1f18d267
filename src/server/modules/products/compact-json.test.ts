import { describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products.js";
import { compactProductJson, expandProductJson } from "./compact-json.js";
import { productJsonText } from "./products.presenter.js";

const product = (fields: Partial<Product> = {}): Product => ({
  id: 7,
  barcode: "0820650853548",
  product_name: "Charizard",
  vendor: "Pokemon",
  release_year: 1999,
  quantity_on_hand: 3,
  is_active: true,
  price: 12000,
  cost: null,
  condition: null,
  grader: "PSA",
  grade: "10",
  set_name: null,
  card_number: "4/102",
  location: "Case A",
  reorder_point: null,
  photos: [],
  version: 4,
  revision: 1234567,
  created_at: "2026-12-07T03:00:00.000Z",
  updated_at: "2026-12-07T03:00:01.000Z",
  ...fields,
});

describe("a product's JSON text kept as its values alone", () => {
  const tricky: Array<Partial<Product>> = [
    {},
    { product_name: 'Say "hi", "vendor":"x"}', vendor: "back\\slash\\", location: "\\" },
    { product_name: "Pokémon 日本語 🃏", vendor: "\u0002tab\tnew\nline", set_name: "" },
    { is_active: false, price: null, release_year: null, quantity_on_hand: 0, reorder_point: 5 },
    {
      photos: [
        { id: 1, url: '/api/photos/1?x="a",{b}', thumbnail_url: "/t/1", width: 800, height: 600 },
        { id: 2, url: "/api/photos/2", thumbnail_url: "/t/2]}", width: 1, height: 2 },
      ],
    },
  ];

  it("gives back the very text it was given, and is much smaller", () => {
    for (const fields of tricky) {
      const json = productJsonText(product(fields));
      const values = compactProductJson(json);
      expect(values, json).not.toBeNull();
      expect(expandProductJson(values as string)).toBe(json);
    }
    const plain = productJsonText(product());
    expect((compactProductJson(plain) as string).length).toBeLessThan(plain.length * 0.55);
  });

  it("keeps nothing of a text that is not a product's as the schema orders it", () => {
    const json = productJsonText(product());
    expect(compactProductJson(json.replace('"vendor"', '"vendorx"'))).toBeNull();
    expect(compactProductJson(`${json} `)).toBeNull();
    expect(compactProductJson(json.slice(0, -1))).toBeNull();
    expect(compactProductJson(JSON.stringify(JSON.parse(json), null, 1))).toBeNull();
    expect(compactProductJson(json.replace('"Charizard"', '"Chari\u0001zard"'))).toBeNull();
    expect(compactProductJson('{"id":1}')).toBeNull();
  });
});
