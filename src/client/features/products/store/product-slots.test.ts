import { describe, expect, it } from "vitest";
import { fakeProduct as product } from "../../../test/product-fakes";
import { ProductSlots } from "./product-slots";

const ids = (slots: ProductSlots) => slots.newestFirst().map((p) => p.id);

describe("ProductSlots: a product the store does not know yet", () => {
  it('"join": takes the next slot, in front of the list', async () => {
    const slots = new ProductSlots();
    await slots.takeList([product(2, 2), product(1, 1)]);
    slots.takeChanges();
    expect(slots.accept(product(3, 3), "join")).toBe(true);
    expect(slots.count()).toBe(3);
    expect(slots.at(2).id).toBe(3);
    expect(ids(slots)).toEqual([3, 2, 1]);
    expect(slots.takeChanges()).toEqual([{ slot: 2 }]);
  });

  it('"set-aside": known (by id and barcode) but in no slot, until a list load places it after the list', async () => {
    const slots = new ProductSlots();
    expect(slots.accept(product(5, 9, { created_at: "2026-02-01T00:00:00.000Z" }), "set-aside")).toBe(true);
    expect(slots.get(5)?.revision).toBe(9);
    expect(slots.byBarcode("code-5")?.id).toBe(5);
    expect(slots.count()).toBe(0);
    expect(slots.takeChanges()).toBeNull();
    await slots.takeList([product(2, 2), product(1, 1)]);
    expect(ids(slots)).toEqual([5, 2, 1]);
    expect(slots.takeChanges()).toBe("reset");
  });

  it('"skip": left out; only a known product changes', () => {
    const slots = new ProductSlots();
    expect(slots.accept(product(1, 1), "skip")).toBe(false);
    expect(slots.get(1)).toBeUndefined();
    slots.accept(product(1, 1), "join");
    expect(slots.accept(product(1, 2, { quantity_on_hand: 4 }), "skip")).toBe(true);
    expect(slots.get(1)?.quantity_on_hand).toBe(4);
  });
});

describe("ProductSlots: copies of a known product", () => {
  it("a newer copy replaces it in its slot whatever the intent; an older or equal one is refused", async () => {
    const slots = new ProductSlots();
    await slots.takeList([product(2, 2), product(1, 1)]);
    slots.takeChanges();
    const old = slots.get(1);
    expect(slots.accept(product(1, 5, { quantity_on_hand: 3 }), "set-aside")).toBe(true);
    expect(slots.accept(product(1, 5, { quantity_on_hand: 99 }), "join")).toBe(false);
    expect(slots.accept(product(1, 4, { quantity_on_hand: 99 }), "join")).toBe(false);
    expect(slots.get(1)?.quantity_on_hand).toBe(3);
    expect(slots.count()).toBe(2);
    expect(slots.takeChanges()).toEqual([{ slot: 0, previous: old }]);
  });

  it("finds a product by its new barcode only, and by the GTIN form of it", () => {
    const slots = new ProductSlots();
    slots.accept(product(1, 1, { barcode: "0820650853548" }), "join");
    expect(slots.byBarcode("820650853548")?.id).toBe(1);
    slots.accept(product(1, 2, { barcode: "new-code" }), "join");
    expect(slots.byBarcode("0820650853548")).toBeUndefined();
    expect(slots.byBarcode("820650853548")).toBeUndefined();
    expect(slots.byBarcode("new-code")?.id).toBe(1);
  });

  it("the newest-first list is the same array until the next change", () => {
    const slots = new ProductSlots();
    slots.accept(product(1, 1), "join");
    const before = slots.newestFirst();
    expect(slots.newestFirst()).toBe(before);
    slots.accept(product(1, 1), "join");
    expect(slots.newestFirst()).toBe(before);
    slots.accept(product(1, 2), "join");
    expect(slots.newestFirst()).not.toBe(before);
  });
});

describe("ProductSlots: taking in a list", () => {
  it("keeps the newer of the stored copy and the list's", async () => {
    const slots = new ProductSlots();
    slots.accept(product(1, 7, { quantity_on_hand: 2 }), "join");
    await slots.takeList([product(2, 3), product(1, 6)]);
    expect(slots.get(1)?.quantity_on_hand).toBe(2);
    expect(ids(slots)).toEqual([2, 1]);
  });

  it("a copy accepted while the list is taken in is applied again over it", async () => {
    const slots = new ProductSlots();
    slots.accept(product(1, 1), "join");
    // The list's slots are filled from the stored copies (revision 1) before this copy comes.
    const taking = slots.takeList([product(2, 2), product(1, 2)]);
    expect(slots.accept(product(1, 5, { quantity_on_hand: 1 }), "join")).toBe(true);
    expect(slots.accept(product(3, 6), "join")).toBe(true);
    await taking;
    expect(slots.get(1)?.revision).toBe(5);
    expect(ids(slots)).toEqual([3, 2, 1]);
    expect(slots.byBarcode("code-3")?.id).toBe(3);
  });
});
