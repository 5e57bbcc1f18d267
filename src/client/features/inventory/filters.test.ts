import { describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products";
import { fakeProduct } from "../../test/product-fakes";
import {
  DEFAULT_FILTERS,
  filterOptions,
  filterProducts,
  filtersFromSearch,
  hasActiveFilters,
  type InventoryFilters,
  NO_GRADER,
  narrows,
  panelFilterCount,
  quantityBucket,
  writeFilters,
} from "./filters";

let nextId = 1;
function product(fields: Partial<Product>): Product {
  const id = nextId++;
  return fakeProduct(id, 1, { barcode: `00000${id}`, ...fields });
}

const f = (over: Partial<InventoryFilters>): InventoryFilters => ({ ...DEFAULT_FILTERS, ...over });
const names = (list: Product[]) => list.map((p) => p.product_name).sort();

const catalogue = [
  product({ product_name: "Prizm Basketball Hobby", vendor: "Panini", barcode: "111222333", release_year: 2023, quantity_on_hand: 0 }),
  product({ product_name: "Chrome Baseball Blaster", vendor: "Topps", barcode: "444555666", release_year: 2024, quantity_on_hand: 1 }),
  product({ product_name: "Series 1 Jumbo", vendor: "Topps", barcode: "777888999", release_year: 2024, quantity_on_hand: 5 }),
  product({ product_name: "Optic Football", vendor: "Panini", barcode: "ABC-123", release_year: null, quantity_on_hand: 6 }),
  product({ product_name: "Update Series", vendor: "Topps", barcode: "UPD-2022", release_year: 2022, quantity_on_hand: 50 }),
  product({ product_name: "Flagship Case", vendor: "Upper Deck", barcode: "UD-51", release_year: 2021, quantity_on_hand: 51 }),
  product({
    product_name: "Old Stock Disabled",
    vendor: "Upper Deck",
    barcode: "OLD-1",
    release_year: 2021,
    quantity_on_hand: 3,
    is_active: false,
  }),
];

describe("quantity buckets: out 0, low 1-5, normal 6-50, high above 50", () => {
  it("puts 0 in out of stock, 1-5 in low, 6-50 in normal, above 50 in high", () => {
    expect(quantityBucket(0)).toBe("out");
    expect(quantityBucket(1)).toBe("low");
    expect(quantityBucket(5)).toBe("low");
    expect(quantityBucket(6)).toBe("normal");
    expect(quantityBucket(50)).toBe("normal");
    expect(quantityBucket(51)).toBe("high");
    expect(quantityBucket(1_000_000)).toBe("high");
  });

  it("filters by each bucket", () => {
    const all = { activeOnly: false };
    expect(names(filterProducts(catalogue, f({ ...all, quantityRange: "out" })))).toEqual(["Prizm Basketball Hobby"]);
    expect(names(filterProducts(catalogue, f({ ...all, quantityRange: "low" })))).toEqual([
      "Chrome Baseball Blaster",
      "Old Stock Disabled",
      "Series 1 Jumbo",
    ]);
    expect(names(filterProducts(catalogue, f({ ...all, quantityRange: "normal" })))).toEqual(["Optic Football", "Update Series"]);
    expect(names(filterProducts(catalogue, f({ ...all, quantityRange: "high" })))).toEqual(["Flagship Case"]);
  });
});

describe("filterProducts", () => {
  it("shows active products only by default", () => {
    expect(filterProducts(catalogue, DEFAULT_FILTERS)).toHaveLength(6);
    expect(filterProducts(catalogue, f({ activeOnly: false }))).toHaveLength(7);
  });

  it("counts a missing is_active as active", () => {
    const legacy = { ...product({ product_name: "Legacy" }), is_active: undefined } as unknown as Product;
    expect(names(filterProducts([legacy], f({ status: "active" })))).toEqual(["Legacy"]);
  });

  it("searches name, vendor and barcode, case-insensitively, every word", () => {
    expect(names(filterProducts(catalogue, f({ searchText: "prizm" })))).toEqual(["Prizm Basketball Hobby"]);
    expect(names(filterProducts(catalogue, f({ searchText: "PANINI" })))).toEqual(["Optic Football", "Prizm Basketball Hobby"]);
    expect(names(filterProducts(catalogue, f({ searchText: "555" })))).toEqual(["Chrome Baseball Blaster"]);
    expect(names(filterProducts(catalogue, f({ searchText: "  topps   series " })))).toEqual(["Series 1 Jumbo", "Update Series"]);
    expect(filterProducts(catalogue, f({ searchText: "no such thing" }))).toEqual([]);
  });

  it("filters by vendor and release year", () => {
    expect(names(filterProducts(catalogue, f({ vendor: "Upper Deck" })))).toEqual(["Flagship Case"]);
    expect(names(filterProducts(catalogue, f({ vendor: "Upper Deck", activeOnly: false })))).toEqual([
      "Flagship Case",
      "Old Stock Disabled",
    ]);
    expect(names(filterProducts(catalogue, f({ releaseYear: "2024" })))).toEqual(["Chrome Baseball Blaster", "Series 1 Jumbo"]);
  });

  it("filters by status", () => {
    expect(names(filterProducts(catalogue, f({ status: "disabled", activeOnly: false })))).toEqual(["Old Stock Disabled"]);
    expect(filterProducts(catalogue, f({ status: "active", activeOnly: false }))).toHaveLength(6);
    expect(filterProducts(catalogue, f({ status: "all", activeOnly: false }))).toHaveLength(7);
  });

  it("combines every filter", () => {
    expect(
      names(
        filterProducts(
          catalogue,
          f({ searchText: "series", vendor: "Topps", releaseYear: "2024", quantityRange: "low", status: "active" }),
        ),
      ),
    ).toEqual(["Series 1 Jumbo"]);
  });

  it("keeps the list order and never returns the input array itself", () => {
    const out = filterProducts(catalogue, f({ activeOnly: false }));
    expect(out).toEqual(catalogue);
    expect(out).not.toBe(catalogue);
  });
});

describe("filter state", () => {
  it("knows when filters differ from the defaults", () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters(f({ searchText: "  " }))).toBe(false);
    expect(hasActiveFilters(f({ searchText: "x" }))).toBe(true);
    expect(hasActiveFilters(f({ activeOnly: false }))).toBe(true);
    expect(hasActiveFilters(f({ vendor: "Topps" }))).toBe(true);
    expect(hasActiveFilters(f({ releaseYear: "2024" }))).toBe(true);
    expect(hasActiveFilters(f({ quantityRange: "high" }))).toBe(true);
    expect(hasActiveFilters(f({ status: "disabled" }))).toBe(true);
    expect(panelFilterCount(f({ vendor: "Topps", status: "active", searchText: "x" }))).toBe(2);
  });

  it("offers the vendors and years present", () => {
    expect(filterOptions(catalogue)).toEqual({
      vendors: ["Panini", "Topps", "Upper Deck"],
      years: [2024, 2023, 2022, 2021],
      locations: [],
    });
  });
});

describe("card details in search and filters", () => {
  const slab = product({
    id: 101,
    product_name: "Wembanyama Silver",
    grader: "PSA",
    grade: "10",
    set_name: "2023 Prizm",
    card_number: "136",
    location: "Case 2",
  });
  const raw = product({ id: 102, product_name: "Wembanyama Base", condition: "Near Mint", set_name: "2023 Hoops", location: "Binder 1" });
  const box = product({ id: 103, product_name: "Prizm Hobby Box", condition: "Sealed" });
  const all = [slab, raw, box];
  const ids = (f: Partial<InventoryFilters>) => filterProducts(all, { ...DEFAULT_FILTERS, ...f }).map((p) => p.id);

  it("finds products by set name, card number and location", () => {
    expect(ids({ searchText: "prizm 136" })).toEqual([101]);
    expect(ids({ searchText: "hoops" })).toEqual([102]);
    expect(ids({ searchText: "binder" })).toEqual([102]);
  });

  it("filters by condition, grader (or not graded) and location, counted in the panel", () => {
    expect(ids({ condition: "Near Mint" })).toEqual([102]);
    expect(ids({ grader: "PSA" })).toEqual([101]);
    expect(ids({ grader: NO_GRADER })).toEqual([102, 103]);
    expect(ids({ location: "Case 2" })).toEqual([101]);
    expect(panelFilterCount({ ...DEFAULT_FILTERS, condition: "Sealed", grader: "PSA", location: "x" })).toBe(3);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, grader: "BGS" })).toBe(true);
    expect(filterOptions(all).locations).toEqual(["Binder 1", "Case 2"]);
  });
});

describe("narrowing search (typing more searches the previous result)", () => {
  it("gives the same result as filtering everything, for any extension of the text", () => {
    const texts = ["t", "to", "top", "topp", "topps ", "topps s", "topps se", "topps series"];
    for (let i = 1; i < texts.length; i++) {
      const prev = f({ searchText: texts[i - 1] ?? "" });
      const next = f({ searchText: texts[i] ?? "" });
      expect(narrows(prev, next)).toBe(true);
      expect(filterProducts(filterProducts(catalogue, prev), next)).toEqual(filterProducts(catalogue, next));
    }
    expect(narrows(f({ searchText: "topps" }), f({ searchText: "top" }))).toBe(false);
    expect(narrows(f({ searchText: "" }), f({ searchText: "a" }))).toBe(false);
    expect(narrows(f({ searchText: "a" }), f({ searchText: "ab", vendor: "Topps" }))).toBe(false);
  });
});

describe("products kept in view", () => {
  it("a product this user just disabled stays in the 'Active only' list while it is kept", () => {
    const off = catalogue.find((p) => p.product_name === "Old Stock Disabled");
    if (!off) throw new Error("fixture");
    expect(names(filterProducts(catalogue, DEFAULT_FILTERS))).not.toContain(off.product_name);
    expect(names(filterProducts(catalogue, DEFAULT_FILTERS, undefined, new Set([off.id])))).toContain(off.product_name);
  });
});

describe("filters in the address's query string", () => {
  const query = (f: InventoryFilters) => {
    const params = new URLSearchParams();
    writeFilters(f, params);
    return params.toString();
  };

  it("the unfiltered list is the plain address; each filter set is named, and read back as it was", () => {
    expect(query(DEFAULT_FILTERS)).toBe("");
    const set: InventoryFilters = {
      searchText: "pikachu base",
      vendor: "Topps & Co",
      releaseYear: "1999",
      quantityRange: "low",
      status: "disabled",
      activeOnly: false,
      condition: "Near Mint",
      grader: NO_GRADER,
      location: "Shelf 3",
    };
    expect(query(set)).toBe(
      "q=pikachu+base&vendor=Topps+%26+Co&year=1999&stock=low&status=disabled&active=false&condition=Near+Mint&grader=none&location=Shelf+3",
    );
    expect(filtersFromSearch(new URLSearchParams(query(set)))).toEqual(set);
    expect(filtersFromSearch(new URLSearchParams("q=x"))).toEqual({ ...DEFAULT_FILTERS, searchText: "x" });
  });

  it("what it does not understand is the default", () => {
    expect(filtersFromSearch(new URLSearchParams("year=19x9&stock=lots&status=gone&active=maybe&other=1"))).toEqual(DEFAULT_FILTERS);
  });
});
