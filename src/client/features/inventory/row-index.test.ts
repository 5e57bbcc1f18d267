import { describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products";
import { fakeApi, fakeEvent, fakeProduct } from "../../test/product-fakes";
import { ProductStore } from "../products";
import { DEFAULT_FILTERS, type InventoryFilters } from "./filters";
import { RowIndex, type RowSort } from "./row-index";

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

/** A loaded store (the list newest first, as the server sends it) and an index following it. */
async function loaded(products: Product[]) {
  const fake = fakeApi();
  const store = new ProductStore(fake.api);
  store.ensureList();
  fake.calls.list[0]?.resolve({ products, revision: 1000 });
  await settle();
  const index = new RowIndex(store);
  const stop = index.connect();
  return { store, index, stop };
}

const NONE: ReadonlySet<number> = new Set();
const f = (over: Partial<InventoryFilters> = {}): InventoryFilters => ({ ...DEFAULT_FILTERS, ...over });
const ids = (index: RowIndex, rows: Int32Array) => [...index.products(rows)].map((p) => p.id);
const byQuantity = (desc = false): RowSort => ({ id: "quantity_on_hand", desc, value: (p) => p.quantity_on_hand });
const byPrice: RowSort = { id: "price", desc: false, value: (p) => p.price };
const change = (store: ProductStore, p: Product) => store.applyEvent(fakeEvent("quantity_changed", { product: p }));

const catalogue = () => [
  fakeProduct(5, 5, { product_name: "Topps Chrome Ohtani", quantity_on_hand: 3, price: 500 }),
  fakeProduct(4, 4, { product_name: "Prizm Wembanyama", quantity_on_hand: 9, price: null }),
  fakeProduct(3, 3, { product_name: "Bowman Chrome Skenes", quantity_on_hand: 3, price: 100 }),
  fakeProduct(2, 2, { product_name: "Optic Mahomes", quantity_on_hand: 0, is_active: false }),
  fakeProduct(1, 1, { product_name: "Chrome Judge 12", quantity_on_hand: 40, price: 2500 }),
];

describe("RowIndex", () => {
  it("shows the catalogue's order (newest first) and sorts by a column, ties in the catalogue's order, no value last", async () => {
    const { index } = await loaded(catalogue());
    expect(ids(index, index.select(f(), null, NONE))).toEqual([5, 4, 3, 1]);
    expect(ids(index, index.select(f({ activeOnly: false }), null, NONE))).toEqual([5, 4, 3, 2, 1]);
    expect(ids(index, index.select(f(), byQuantity(), NONE))).toEqual([5, 3, 4, 1]);
    expect(ids(index, index.select(f(), byQuantity(true), NONE))).toEqual([1, 4, 5, 3]);
    expect(ids(index, index.select(f(), byPrice, NONE))).toEqual([3, 5, 1, 4]);
    expect(ids(index, index.select(f(), { ...byPrice, desc: true }, NONE))).toEqual([1, 5, 3, 4]);
  });

  it("says a search is cheap once every product's search key is made (fillKeys), not before", async () => {
    const { index } = await loaded(catalogue());
    expect(index.searchIsCheap()).toBe(false);
    let budget = 2;
    expect(index.fillKeys(() => budget-- > 0)).toBe(false);
    expect(index.searchIsCheap()).toBe(false);
    expect(index.fillKeys(() => true)).toBe(true);
    expect(index.searchIsCheap()).toBe(true);
    expect(ids(index, index.select(f({ searchText: "chrome 12" }), null, NONE))).toEqual([1]);
  });

  it("filters the sorted order as the search grows and shrinks", async () => {
    const { index } = await loaded(catalogue());
    const sort = byQuantity();
    const steps = ["c", "ch", "chrome", "chrome ", "chrome 1", "chrome 12", "chrome 1", "chrome", ""];
    const seen = steps.map((q) => ids(index, index.select(f({ searchText: q }), sort, NONE)));
    expect(seen[2]).toEqual([5, 3, 1]);
    expect(seen[5]).toEqual([1]);
    expect(seen[8]).toEqual([5, 3, 4, 1]);
    for (const [i, q] of steps.entries()) {
      const fresh = new RowIndex((await loaded(catalogue())).store);
      expect(ids(fresh, fresh.select(f({ searchText: q }), sort, NONE))).toEqual(seen[i]);
    }
  });

  it("a change that cannot move its row leaves the rows as they are (the row reads its product)", async () => {
    const { store, index } = await loaded(catalogue());
    const filters = f({ searchText: "chrome" });
    const rows = index.select(filters, null, NONE);
    const version = index.getVersion();
    change(store, fakeProduct(3, 10, { product_name: "Bowman Chrome Skenes", quantity_on_hand: 2, price: 100 }));
    expect(index.getVersion()).toBe(version);
    expect(index.select(filters, null, NONE)).toBe(rows);
    expect(index.productAt(rows, 1)?.quantity_on_hand).toBe(2);
    // Sorted by name, a stock change cannot move it either.
    const byName: RowSort = { id: "product_name", desc: false, value: (p) => p.product_name.toLowerCase() };
    const sortedRows = index.select(filters, byName, NONE);
    change(store, fakeProduct(3, 11, { product_name: "Bowman Chrome Skenes", quantity_on_hand: 1, price: 100 }));
    expect(index.select(filters, byName, NONE)).toBe(sortedRows);
  });

  it("moves a row whose sorted value changed, and adds or removes one that joins or leaves the filters", async () => {
    const { store, index } = await loaded(catalogue());
    const sort = byQuantity();
    const filters = f({ quantityRange: "low" });
    expect(ids(index, index.select(filters, sort, NONE))).toEqual([5, 3]);
    const version = index.getVersion();
    change(store, fakeProduct(3, 10, { product_name: "Bowman Chrome Skenes", quantity_on_hand: 1, price: 100 }));
    expect(index.getVersion()).toBe(version + 1);
    expect(ids(index, index.select(filters, sort, NONE))).toEqual([3, 5]);
    change(store, fakeProduct(1, 11, { product_name: "Chrome Judge 12", quantity_on_hand: 2, price: 2500 }));
    expect(ids(index, index.select(filters, sort, NONE))).toEqual([3, 1, 5]);
    change(store, fakeProduct(5, 12, { product_name: "Topps Chrome Ohtani", quantity_on_hand: 30, price: 500 }));
    expect(ids(index, index.select(filters, sort, NONE))).toEqual([3, 1]);
    // A product kept in view (disabled by this user) stays whatever the filters say.
    const kept = new Set([1]);
    expect(ids(index, index.select(filters, sort, kept))).toEqual([3, 1]);
    change(store, fakeProduct(1, 13, { product_name: "Chrome Judge 12", quantity_on_hand: 2, price: 2500, is_active: false }));
    expect(ids(index, index.select(filters, sort, kept))).toEqual([3, 1]);
    // The same with the search box alone: kept whether or not it matches or is active.
    const prizmKept = new Set([4, 1]);
    expect(ids(index, index.select(f({ searchText: "chrome" }), null, prizmKept))).toEqual([5, 4, 3, 1]);
    expect(ids(index, index.select(f({ searchText: "chrome" }), null, NONE))).toEqual([5, 3]);
    // Narrowing the search with products kept: they stay; the others must hold the new word too.
    expect(ids(index, index.select(f({ searchText: "chrome" }), null, prizmKept))).toEqual([5, 4, 3, 1]);
    expect(ids(index, index.select(f({ searchText: "chrome sk" }), null, prizmKept))).toEqual([4, 3, 1]);
    expect(ids(index, index.select(f({ searchText: "chrome ske" }), null, prizmKept))).toEqual([4, 3, 1]);
  });

  it("a product new to this tab joins in front (or in its sorted place) when it passes the filters", async () => {
    const { store, index } = await loaded(catalogue());
    const filters = f({ searchText: "chrome" });
    expect(ids(index, index.select(filters, null, NONE))).toEqual([5, 3, 1]);
    store.applyEvent(fakeEvent("product_created", { product: fakeProduct(6, 20, { product_name: "Chrome Witt", quantity_on_hand: 4 }) }));
    store.applyEvent(fakeEvent("product_created", { product: fakeProduct(7, 21, { product_name: "Select Doncic" }) }));
    expect(ids(index, index.select(filters, null, NONE))).toEqual([6, 5, 3, 1]);
    expect(index.size()).toBe(7);
    expect(ids(index, index.select(filters, byQuantity(), NONE))).toEqual([5, 3, 6, 1]);
    expect(index.options().vendors).toEqual(["Topps"]);
  });

  it("after any run of changes the rows are those a fresh index finds", async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const start = Array.from({ length: 60 }, (_, i) =>
      fakeProduct(60 - i, 60 - i, {
        product_name: `${["Chrome", "Prizm", "Optic"][i % 3]} Card ${60 - i}`,
        quantity_on_hand: (i * 7) % 12,
        price: i % 5 === 0 ? null : (i * 13) % 40,
      }),
    );
    const { store, index } = await loaded(start);
    const cases: Array<[InventoryFilters, RowSort | null]> = [
      [f({ searchText: "chrome" }), byQuantity()],
      [f({ quantityRange: "low" }), byPrice],
      [f({ activeOnly: false }), byQuantity(true)],
      [f(), null],
    ];
    let revision = 100;
    for (let step = 0; step < 200; step++) {
      const [filters, sort] = cases[step % cases.length] as [InventoryFilters, RowSort | null];
      index.select(filters, sort, NONE);
      const id = 1 + random(65);
      const old = store.get(id);
      const next = fakeProduct(id, ++revision, {
        ...(old ?? {}),
        revision,
        quantity_on_hand: random(15),
        is_active: random(6) !== 0,
        product_name: `${["Chrome", "Prizm", "Optic"][random(3)]} Card ${id}`,
      });
      store.applyEvent(fakeEvent(old ? "quantity_changed" : "product_created", { product: next }));
      const fresh = new RowIndex(store);
      expect(ids(index, index.select(filters, sort, NONE))).toEqual(ids(fresh, fresh.select(filters, sort, NONE)));
    }
  });
  it("typing and erasing a search while products change: each search's rows are those a fresh index finds", async () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const names = ["Chrome", "Chrome Refractor", "Prizm", "Optic Chrome"];
    const start = Array.from({ length: 40 }, (_, i) =>
      fakeProduct(40 - i, 40 - i, { product_name: `${names[i % 4]} ${40 - i}`, quantity_on_hand: i % 7 }),
    );
    const { store, index } = await loaded(start);
    const steps = ["c", "ch", "chr", "chrome", "chrome ", "chrome 1", "chrome 12", "chrome 1", "chrome", "chr", "ch", "c", ""];
    let revision = 100;
    for (let round = 0; round < 12; round++) {
      for (const [k, q] of steps.entries()) {
        for (const sort of [null, byPrice]) {
          if (round % 2 === (sort ? 1 : 0)) continue;
          const filters = f({ searchText: q, activeOnly: round % 3 !== 2 });
          index.select(filters, sort, NONE);
          // A change after most keystrokes: stock only (rows stay), a new name, or a status change.
          if (k % 4 !== 3) {
            const id = 1 + random(42);
            const old = store.get(id);
            const kind = random(3);
            const next = fakeProduct(id, ++revision, {
              ...(old ?? {}),
              revision,
              quantity_on_hand: random(9),
              ...(kind === 1 ? { product_name: `${names[random(4)]} ${id}` } : {}),
              ...(kind === 2 ? { is_active: random(2) === 0 } : {}),
            });
            store.applyEvent(fakeEvent(old ? "quantity_changed" : "product_created", { product: next }));
          }
          const fresh = new RowIndex(store);
          expect(ids(index, index.select(filters, sort, NONE))).toEqual(ids(fresh, fresh.select(filters, sort, NONE)));
        }
      }
    }
  });
});
