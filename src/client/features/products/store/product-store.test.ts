import { describe, expect, it } from "vitest";
import type { Product } from "../../../../contract/products";
import { ApiError } from "../../../lib/http";
import { fakeEvent as event, fakeApi, fakeProduct as product } from "../../../test/product-fakes";
import { ProductStore } from "./product-store";

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

async function loadedStore(products: Product[], revision: number) {
  const fake = fakeApi();
  const store = new ProductStore(fake.api);
  store.ensureList();
  fake.calls.list[0]?.resolve({ products, revision });
  await settle();
  return { store, ...fake };
}

describe("ProductStore: first load and revisions", () => {
  it("downloads the list once, however many screens ask for it", async () => {
    const { store, calls } = await loadedStore([product(2, 5), product(1, 3)], 5);
    store.ensureList();
    store.ensureList();
    expect(calls.list).toHaveLength(1);
    expect(store.getListStatus()).toBe("loaded");
    expect(store.getList().map((p) => p.id)).toEqual([2, 1]);
  });

  it("keeps the newest copy of a product whatever order copies arrive in", async () => {
    const { store } = await loadedStore([product(1, 3)], 3);
    store.applyEvent(event("quantity_changed", { product: product(1, 7, { quantity_on_hand: 4 }) }));
    store.applyEvent(event("quantity_changed", { product: product(1, 6, { quantity_on_hand: 5 }) }));
    store.put(product(1, 7, { quantity_on_hand: 99 }));
    expect(store.get(1)?.quantity_on_hand).toBe(4);
    store.put(product(1, 8, { quantity_on_hand: 3 }));
    expect(store.get(1)?.quantity_on_hand).toBe(3);
  });

  it("an event during the first load is not undone by the older list", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    store.applyEvent(event("product_created", { product: product(9, 12) }));
    store.applyEvent(event("quantity_changed", { product: product(1, 11, { quantity_on_hand: 2 }) }));
    calls.list[0]?.resolve({ products: [product(1, 10), product(3, 4)], revision: 10 });
    await settle();
    expect(store.getList().map((p) => [p.id, p.quantity_on_hand])).toEqual([
      [9, 10],
      [1, 2],
      [3, 10],
    ]);
  });

  it("shows the list's first page while the list loads; live changes reach it, and the list replaces it", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    expect(calls.first).toHaveLength(1);
    calls.first[0]?.resolve([product(3, 4), product(2, 3)]);
    await settle();
    expect(store.getListStatus()).toBe("loading");
    expect(store.getFirstPage()?.map((p) => p.id)).toEqual([3, 2]);
    // Not the catalogue: no count or search is made from it.
    expect(store.slotCount()).toBe(0);
    store.applyEvent(event("quantity_changed", { product: product(2, 7, { quantity_on_hand: 1 }) }));
    expect(store.get(2)?.quantity_on_hand).toBe(1);
    calls.list[0]?.resolve({ products: [product(3, 4), product(2, 3), product(1, 2)], revision: 4 });
    await settle();
    expect(store.getFirstPage()).toBeNull();
    expect(store.getList().map((p) => [p.id, p.quantity_on_hand])).toEqual([
      [3, 10],
      [2, 1],
      [1, 10],
    ]);
  });

  it("products of the first page that the list (an older snapshot) does not hold follow it, newest first", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    const at = (s: number) => ({ created_at: `2026-01-01T00:00:0${s}.000Z` });
    calls.first[0]?.resolve([product(5, 9, at(5)), product(4, 8, at(4)), product(3, 7, at(3))]);
    await settle();
    calls.list[0]?.resolve({ products: [product(3, 7, at(3)), product(1, 2, at(1))], revision: 7 });
    await settle();
    expect(store.getList().map((p) => p.id)).toEqual([5, 4, 3, 1]);
  });

  it("drops a first page that comes after the list", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    calls.list[0]?.resolve({ products: [product(1, 2)], revision: 2 });
    await settle();
    calls.first[0]?.resolve([product(1, 1)]);
    await settle();
    expect(store.getFirstPage()).toBeNull();
    expect(store.getList().map((p) => p.revision)).toEqual([2]);
  });

  it("a new product from an event goes in front of the list; the list snapshot is stable between changes", async () => {
    const { store } = await loadedStore([product(1, 1)], 1);
    const before = store.getList();
    expect(store.getList()).toBe(before);
    store.applyEvent(event("product_created", { product: product(2, 2) }));
    expect(store.getList().map((p) => p.id)).toEqual([2, 1]);
    expect(store.getList()[1]).toBe(before[0]);
  });

  it("a failed load shows the error and the next request tries again", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    calls.list[0]?.reject(new ApiError("Not signed in", { status: 401 }));
    await settle();
    expect(store.getListStatus()).toBe("error");
    expect((store.getListError() as Error).message).toBe("Not signed in");
    store.ensureList();
    expect(calls.list).toHaveLength(2);
  });
});

describe("ProductStore: pending quantity changes", () => {
  it("SOLD on 10 shows 9 at once; its own event then its answer settle it: 10, 9 and nothing else", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 10 })], 5);
    const shown: number[] = [store.shownQuantity(1)];
    store.subscribe(() => {
      if (shown.at(-1) !== store.shownQuantity(1)) shown.push(store.shownQuantity(1));
    });
    const tap = store.tap(1, -1, "Streamer adjustment");
    await settle();
    const call = calls.adjust[0];
    expect(call?.body).toEqual({ quantity_change: -1, reason: "Streamer adjustment" });
    const after = product(1, 6, { quantity_on_hand: 9 });
    store.applyEvent(event("quantity_changed", { product: after, idempotency_key: call?.key }));
    call?.answer.resolve(after);
    await tap;
    expect(shown).toEqual([10, 9]);
    expect(store.pendingDelta(1)).toBe(0);
  });

  it("the answer first, then its own event: still 10, 9", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 10 })], 5);
    const shown: number[] = [store.shownQuantity(1)];
    store.subscribe(() => {
      if (shown.at(-1) !== store.shownQuantity(1)) shown.push(store.shownQuantity(1));
    });
    const tap = store.tap(1, -1, "Streamer adjustment");
    await settle();
    const after = product(1, 6, { quantity_on_hand: 9 });
    calls.adjust[0]?.answer.resolve(after);
    await tap;
    store.applyEvent(event("quantity_changed", { product: after, idempotency_key: calls.adjust[0]?.key }));
    expect(shown).toEqual([10, 9]);
  });

  it("a stock count sends the stock it started from with its change", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 10 })], 5);
    const count = store.tap(1, -3, "Recount", { expected: 10 });
    await settle();
    expect(calls.adjust[0]?.body).toEqual({ quantity_change: -3, reason: "Recount", expected_quantity: 10 });
    calls.adjust[0]?.answer.resolve(product(1, 6, { quantity_on_hand: 7 }));
    expect((await count).quantity_on_hand).toBe(7);
  });

  it("another user's change while a tap is in flight counts both", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 10 })], 5);
    const tap = store.tap(1, -1, "Manual adjustment");
    await settle();
    store.applyEvent(event("quantity_changed", { product: product(1, 6, { quantity_on_hand: 8 }) }));
    expect(store.shownQuantity(1)).toBe(7);
    calls.adjust[0]?.answer.resolve(product(1, 7, { quantity_on_hand: 7 }));
    await tap;
    expect(store.shownQuantity(1)).toBe(7);
    expect(store.pendingDelta(1)).toBe(0);
  });

  it("a failed change drops its pending delta", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 1 })], 5);
    const tap = store.tap(1, -1, "Manual adjustment");
    expect(store.shownQuantity(1)).toBe(0);
    await settle();
    calls.adjust[0]?.answer.reject(new ApiError("Insufficient stock", { status: 409 }));
    await expect(tap).rejects.toThrow("Insufficient stock");
    expect(store.shownQuantity(1)).toBe(1);
  });

  it("each change has its own key; an event with another tab's key settles nothing", async () => {
    const { store, calls } = await loadedStore([product(1, 5, { quantity_on_hand: 10 })], 5);
    void store.tap(1, 1, "Manual adjustment");
    void store.tap(1, 1, "Manual adjustment");
    await settle();
    calls.adjust[0]?.answer.resolve(product(1, 6, { quantity_on_hand: 11 }));
    await settle();
    expect(new Set(calls.adjust.map((c) => c.key)).size).toBe(2);
    // Another tab's +1 (its own key): the second change is still counted as pending on top.
    store.applyEvent(event("quantity_changed", { product: product(1, 7, { quantity_on_hand: 12 }), idempotency_key: "elsewhere" }));
    expect(store.shownQuantity(1)).toBe(13);
    expect(store.pendingTaps(1)).toBe(1);
  });
});

describe("ProductStore: catching up", () => {
  it("after a reconnect asks for changes since the watermark, never the whole list", async () => {
    const { store, calls } = await loadedStore([product(1, 5)], 5);
    store.resync();
    expect(calls.since.map((c) => c.revision)).toEqual([5]);
    calls.since[0]?.answer.resolve({ revision: 9, products: [product(1, 8, { quantity_on_hand: 3 }), product(4, 9)] });
    await store.idle();
    expect(store.get(1)?.quantity_on_hand).toBe(3);
    expect(store.getList().map((p) => p.id)).toEqual([4, 1]);
    store.resync();
    expect(calls.since.map((c) => c.revision)).toEqual([5, 9]);
    expect(calls.list).toHaveLength(1);
  });

  it("one catch-up at a time: triggers during a run schedule exactly one more", async () => {
    const { store, calls } = await loadedStore([product(1, 5)], 5);
    store.resync();
    store.applyEvent(event("products_imported", { revision: 20, count: 3 }));
    store.resync();
    store.resync();
    expect(calls.since).toHaveLength(1);
    calls.since[0]?.answer.resolve({ revision: 12, products: [] });
    await settle();
    expect(calls.since.map((c) => c.revision)).toEqual([5, 12]);
    calls.since[1]?.answer.resolve({ revision: 20, products: [] });
    await store.idle();
    expect(calls.since).toHaveLength(2);
  });

  it("an import already covered by the watermark needs no catch-up; ordinary events never catch up", async () => {
    const { store, calls } = await loadedStore([product(1, 5)], 30);
    store.applyEvent(event("products_imported", { revision: 30, count: 3 }));
    for (let r = 31; r < 51; r++) store.applyEvent(event("quantity_changed", { product: product(1, r) }));
    expect(calls.since).toHaveLength(0);
    expect(calls.list).toHaveLength(1);
  });

  it("a reconnect during the first load catches up after it", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.ensureList();
    store.resync();
    expect(calls.since).toHaveLength(0);
    calls.list[0]?.resolve({ products: [], revision: 7 });
    await settle();
    expect(calls.since.map((c) => c.revision)).toEqual([7]);
  });

  it("a list loaded after the live connection came up is followed by a catch-up from its revision", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.resync(); // the first authentication, before any screen needed the list
    store.ensureList();
    calls.list[0]?.resolve({ products: [product(1, 5)], revision: 5 });
    await settle();
    expect(calls.since.map((c) => c.revision)).toEqual([5]);
  });

  it("a failed catch-up keeps the watermark for the next try", async () => {
    const { store, calls } = await loadedStore([product(1, 5)], 5);
    store.resync();
    calls.since[0]?.answer.reject(new ApiError("Network error. Please check your connection.", { network: true }));
    await store.idle();
    store.resync();
    expect(calls.since.map((c) => c.revision)).toEqual([5, 5]);
  });
});

describe("ProductStore: a screen with only some products (streamer)", () => {
  it("a lookup puts the product in the store; events update only known products", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    const found = store.lookup("code-1");
    expect(store.lookup("code-1")).toBe(found);
    calls.lookup[0]?.answer.resolve(product(1, 3));
    expect(await found).toMatchObject({ id: 1 });
    expect(store.getByBarcode("code-1")?.revision).toBe(3);
    store.applyEvent(event("quantity_changed", { product: product(1, 4, { quantity_on_hand: 2 }) }));
    store.applyEvent(event("product_created", { product: product(2, 5) }));
    expect(store.get(1)?.quantity_on_hand).toBe(2);
    expect(store.get(2)).toBeUndefined();
    expect(calls.list).toHaveLength(0);
  });

  it("re-looks up the watched products (at most 6) on reconnect and import, never on ordinary events", async () => {
    const { api, calls } = fakeApi();
    const store = new ProductStore(api);
    store.setWatched(["a", "b", "a", "c", "d", "e", "f", "g"]);
    store.applyEvent(event("quantity_changed", { product: product(1, 4) }));
    expect(calls.lookup).toHaveLength(0);
    store.resync();
    expect(calls.lookup.map((c) => c.barcode)).toEqual(["a", "b", "c", "d", "e", "f"]);
    // An import during the run: one more run after it.
    store.applyEvent(event("products_imported", { revision: 40, count: 2 }));
    for (const c of calls.lookup) c.answer.resolve(null);
    await settle();
    expect(calls.lookup).toHaveLength(12);
    for (const c of calls.lookup.slice(6)) c.answer.resolve(product(Number(c.barcode.charCodeAt(0)), 41, { barcode: c.barcode }));
    await store.idle();
    expect(store.getByBarcode("c")?.revision).toBe(41);
    expect(calls.since).toHaveLength(0);
    expect(calls.list).toHaveLength(0);
  });
});
