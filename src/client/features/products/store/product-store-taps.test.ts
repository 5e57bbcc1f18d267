import { afterEach, describe, expect, it, vi } from "vitest";
import type { Product } from "../../../../contract/products";
import { ApiError, NETWORK_ERROR_MESSAGE } from "../../../lib/http";
import { fakeEvent as event, fakeApi, fakeProduct as product } from "../../../test/product-fakes";
import { memoryStorage, type QueuedTap } from "./offline-storage";
import { ProductStore } from "./product-store";

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};
const offline = () => new ApiError(NETWORK_ERROR_MESSAGE, { network: true });

const stores: ProductStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});

function storeWith(storage = memoryStorage(), onRefused = vi.fn()) {
  const fake = fakeApi();
  const store = new ProductStore(fake.api, { userId: 7, storage, onRefused });
  stores.push(store);
  return { store, storage, onRefused, ...fake };
}

describe("ProductStore: taps that wait for the server", () => {
  it("a tap shows at once as pending and settles with the server's answer", async () => {
    const { store, calls } = storeWith();
    store.put(product(1, 1, { quantity_on_hand: 10 }));
    const tapped = store.tap(1, -1, "Streamer adjustment", { showId: 4 });
    expect(store.shownQuantity(1)).toBe(9);
    expect(store.pendingTaps(1)).toBe(1);
    expect(store.pendingTapCount()).toBe(1);
    await settle();
    expect(calls.adjust[0]?.body).toEqual({ quantity_change: -1, reason: "Streamer adjustment", show_id: 4 });
    calls.adjust[0]?.answer.resolve(product(1, 2, { quantity_on_hand: 9 }));
    await expect(tapped).resolves.toMatchObject({ quantity_on_hand: 9 });
    expect(store.shownQuantity(1)).toBe(9);
    expect(store.pendingTapCount()).toBe(0);
  });

  it("sends taps one at a time, in the order they were made", async () => {
    const { store, calls } = storeWith();
    store.put(product(1, 1, { quantity_on_hand: 1 }));
    const first = store.tap(1, -1, "Streamer adjustment");
    const second = store.tap(1, 1, "Streamer adjustment");
    await settle();
    expect(calls.adjust).toHaveLength(1);
    expect(calls.adjust[0]?.body.quantity_change).toBe(-1);
    calls.adjust[0]?.answer.resolve(product(1, 2, { quantity_on_hand: 0 }));
    await first;
    await settle();
    expect(calls.adjust).toHaveLength(2);
    expect(calls.adjust[1]?.body.quantity_change).toBe(1);
    calls.adjust[1]?.answer.resolve(product(1, 3, { quantity_on_hand: 1 }));
    await expect(second).resolves.toMatchObject({ quantity_on_hand: 1 });
  });

  it("without a server the taps wait (offline) and go again with the same keys when it is back", async () => {
    const { store, calls, storage } = storeWith();
    store.put(product(1, 1, { quantity_on_hand: 10 }));
    const taps = [store.tap(1, -1, "Streamer adjustment"), store.tap(1, -1, "Streamer adjustment")];
    await settle();
    calls.adjust[0]?.answer.reject(offline());
    await settle();
    expect(store.isOffline()).toBe(true);
    expect(store.shownQuantity(1)).toBe(8);
    expect([...storage.taps.values()].map((t) => t.body.quantity_change)).toEqual([-1, -1]);

    store.flushTaps();
    await settle();
    expect(calls.adjust).toHaveLength(2);
    expect(calls.adjust[1]?.key).toBe(calls.adjust[0]?.key);
    calls.adjust[1]?.answer.resolve(product(1, 2, { quantity_on_hand: 9 }));
    await settle();
    expect(store.isOffline()).toBe(false);
    calls.adjust[2]?.answer.resolve(product(1, 3, { quantity_on_hand: 8 }));
    await Promise.all(taps);
    expect(store.pendingTapCount()).toBe(0);
    expect(storage.taps.size).toBe(0);
  });

  it("a refused tap is dropped with the server's reason, and the next one goes", async () => {
    const { store, calls } = storeWith();
    store.put(product(1, 1, { quantity_on_hand: 0 }));
    const refused = store.tap(1, -1, "Streamer adjustment");
    const next = store.tap(1, 1, "Streamer adjustment");
    await settle();
    calls.adjust[0]?.answer.reject(new ApiError("Insufficient stock", { status: 409 }));
    await expect(refused).rejects.toThrow("Insufficient stock");
    await settle();
    calls.adjust[1]?.answer.resolve(product(1, 2, { quantity_on_hand: 1 }));
    await expect(next).resolves.toMatchObject({ quantity_on_hand: 1 });
    expect(store.pendingTapCount()).toBe(0);
  });

  it("its own live event settles a tap before its answer, once", async () => {
    const { store, calls } = storeWith();
    store.put(product(1, 1, { quantity_on_hand: 10 }));
    const tapped = store.tap(1, -1, "Streamer adjustment");
    await settle();
    const key = calls.adjust[0]?.key as string;
    store.applyEvent(event("quantity_changed", { product: product(1, 2, { quantity_on_hand: 9 }), idempotency_key: key }));
    await expect(tapped).resolves.toMatchObject({ quantity_on_hand: 9 });
    expect(store.shownQuantity(1)).toBe(9);
    calls.adjust[0]?.answer.resolve(product(1, 2, { quantity_on_hand: 9 }));
    await settle();
    expect(store.shownQuantity(1)).toBe(9);
    expect(store.pendingTapCount()).toBe(0);
  });

  it("after a reload: the kept taps and products come back as pending and are sent in order; a refusal is reported", async () => {
    const storage = memoryStorage();
    const before = storeWith(storage);
    before.store.put(product(1, 1, { quantity_on_hand: 10, barcode: "0820650853548" }));
    before.store.setWatched(["0820650853548"]);
    void before.store.tap(1, -1, "Streamer adjustment").catch(() => {});
    void before.store.tap(1, -1, "Streamer adjustment").catch(() => {});
    await settle();
    before.calls.adjust[0]?.answer.reject(offline());
    await new Promise((r) => setTimeout(r, 300));
    before.store.dispose();
    const keys = [...storage.taps.values()].map((t: QueuedTap) => t.key);
    expect(keys).toHaveLength(2);

    const after = storeWith(storage);
    await settle();
    // The product and its waiting taps, found also by the UPC-A form of its barcode.
    expect(after.store.getByBarcode("820650853548")?.id).toBe(1);
    expect(after.store.shownQuantity(1)).toBe(8);
    expect(after.store.pendingTaps(1)).toBe(2);
    expect(after.calls.adjust.map((c) => c.key)).toEqual([keys[0]]);
    after.calls.adjust[0]?.answer.resolve(product(1, 2, { quantity_on_hand: 9 }));
    await settle();
    expect(after.calls.adjust.map((c) => c.key)).toEqual(keys);
    after.calls.adjust[1]?.answer.reject(new ApiError("Product is disabled", { status: 409 }));
    await settle();
    expect(after.onRefused).toHaveBeenCalledOnce();
    const [, error, shown] = after.onRefused.mock.calls[0] ?? [];
    expect((error as ApiError).message).toBe("Product is disabled");
    expect((shown as Product).product_name).toBe("Card 1");
    expect(after.store.pendingTapCount()).toBe(0);
    expect(after.store.shownQuantity(1)).toBe(9);
    expect(storage.taps.size).toBe(0);
  });

  it("a kept product the list snapshot does not hold yet still shows in the list after a reload", async () => {
    const storage = memoryStorage();
    await storage.saveProducts(7, [product(5, 40, { quantity_on_hand: 10 })]);
    await storage.putTap({ key: "k", userId: 7, seq: 1, productId: 5, body: { quantity_change: 1, reason: "x" }, at: "" });
    const { store, calls } = storeWith(storage);
    await settle();
    store.ensureList();
    // The shared snapshot is a little behind: it predates product 5.
    calls.list[0]?.resolve({ products: [product(1, 3)], revision: 30 });
    await settle();
    expect(store.getList().map((p) => p.id)).toEqual([5, 1]);
  });

  it("keeps waiting taps of one user from another's store", async () => {
    const storage = memoryStorage();
    await storage.putTap({ key: "k", userId: 99, seq: 1, productId: 1, body: { quantity_change: -1, reason: "x" }, at: "" });
    const { store, calls } = storeWith(storage);
    await settle();
    expect(store.pendingTapCount()).toBe(0);
    expect(calls.adjust).toHaveLength(0);
  });
});
