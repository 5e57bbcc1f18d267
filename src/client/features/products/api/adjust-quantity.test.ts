// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { STOCK_MOVED } from "../../../../contract/rules";
import { ApiError } from "../../../lib/http";
import { fakeProduct as product } from "../../../test/product-fakes";
import { answerJson, startTestServer, type TestServer } from "../../../test/test-server";
import { memoryStorage } from "../store/offline-storage";
import { ProductStore } from "../store/product-store";
import type { ProductStoreApi } from "../store/product-store-api";
import { adjustQuantity, newIdempotencyKey } from "./adjust-quantity";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Answer = "drop" | { status: number; body: unknown };

/** A server that answers the n-th request with `answer(n)` ("drop" closes the connection unanswered). */
async function serve(answer: (n: number) => Answer) {
  const seen: Array<{ key: string | undefined; url: string | undefined; body: string }> = [];
  server = await startTestServer((req, res, body) => {
    seen.push({ key: req.headers["idempotency-key"] as string | undefined, url: req.url, body });
    const a = answer(seen.length - 1);
    if (a === "drop") req.socket.destroy();
    else answerJson(res, a.status, a.body);
  });
  return { seen };
}

const DOWN = { status: 503, body: { error: "Database unavailable. Please try again shortly." } };
const BODY = { quantity_change: -1, reason: "Manual adjustment" };

/** The product store on the real call (to the server of this test). */
function storeOn(storage = memoryStorage(), onRefused = vi.fn()) {
  let keys = 0;
  const unused = () => Promise.reject(new Error("not used here"));
  const api: ProductStoreApi = {
    list: unused,
    since: unused,
    lookup: unused,
    adjust: (id, body, key) => adjustQuantity(id, body, key),
    newKey: () => `key-${++keys}`,
  };
  const store = new ProductStore(api, { userId: 7, storage, onRefused });
  stores.push(store);
  store.put(product(3, 1, { quantity_on_hand: 10 }));
  return { store, storage, onRefused };
}

const stores: ProductStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});

describe("adjustQuantity", () => {
  it("sends the change once, with its Idempotency-Key, and answers the product", async () => {
    const updated = { id: 3, quantity_on_hand: 9 };
    const { seen } = await serve(() => ({ status: 200, body: updated }));
    const key = newIdempotencyKey();
    expect(await adjustQuantity(3, BODY, key)).toEqual(updated);
    expect(seen).toEqual([{ key, url: "/api/products/3/quantity", body: JSON.stringify(BODY) }]);
  });

  it("does not retry by itself: a 503 or a lost answer comes back at once (the queue decides)", async () => {
    const { seen } = await serve((n) => (n === 0 ? DOWN : "drop"));
    const down = await adjustQuantity(3, BODY, "k-1").catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 503, message: "Database unavailable. Please try again shortly." });
    const lost = await adjustQuantity(3, BODY, "k-2").catch((e: unknown) => e);
    expect(lost).toMatchObject({ isNetworkError: true });
    expect(seen).toHaveLength(2);
  });

  it("makes a new key per change", () => {
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    expect(newIdempotencyKey()).toMatch(/^[\x20-\x7e]{1,100}$/);
  });
});

describe("the one quantity path (store queue over HTTP)", () => {
  it("rides out a database restart: a lost answer and 503s go again with the same key, pending meanwhile, applied once", async () => {
    const updated = product(3, 2, { quantity_on_hand: 9 });
    const { seen } = await serve((n) => (["drop", DOWN][n] as Answer) ?? { status: 200, body: updated });
    const { store } = storeOn();
    const change = store.tap(3, -1, "Manual adjustment");
    await vi.waitFor(() => expect(store.isOffline()).toBe(true));
    expect(store.shownQuantity(3)).toBe(9);
    expect(store.pendingTaps(3)).toBe(1);
    await expect(change).resolves.toMatchObject({ quantity_on_hand: 9 });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.key))).toEqual(new Set(["key-1"]));
    expect(store.isOffline()).toBe(false);
    expect(store.pendingTaps(3)).toBe(0);
    expect(store.shownQuantity(3)).toBe(9);
  });

  it("a 500 is refused at once: one send, the server's reason, the shown stock goes back", async () => {
    const { seen } = await serve(() => ({ status: 500, body: { error: "Internal server error" } }));
    const { store, storage } = storeOn();
    const change = store.tap(3, -1, "Manual adjustment");
    expect(store.shownQuantity(3)).toBe(9);
    const err = await change.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("Internal server error");
    expect(store.shownQuantity(3)).toBe(10);
    expect(store.pendingTaps(3)).toBe(0);
    expect(store.isOffline()).toBe(false);
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toHaveLength(1);
    expect(storage.taps.size).toBe(0);
  });

  it("a count keeps its starting stock when queued: refused with the server's reason when the stock moved", async () => {
    const { seen } = await serve(() => ({ status: 409, body: { error: STOCK_MOVED } }));
    const { store } = storeOn();
    const err = await store.tap(3, -4, "Recount", { expected: 10 }).catch((e: unknown) => e);
    expect((err as ApiError).message).toBe(STOCK_MOVED);
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual({ quantity_change: -4, reason: "Recount", expected_quantity: 10 });
    expect(store.shownQuantity(3)).toBe(10);
  });

  it("a 401 keeps the change stored for the same user, unsent and unrefused; their next sign-in sends it with its key", async () => {
    let signedIn = false;
    const updated = product(3, 2, { quantity_on_hand: 9 });
    const { seen } = await serve(() => (signedIn ? { status: 200, body: updated } : { status: 401, body: { error: "Not signed in" } }));
    const before = storeOn();
    const change = before.store.tap(3, -1, "Manual adjustment");
    let outcome = "waiting";
    change.then(
      () => (outcome = "applied"),
      () => (outcome = "refused"),
    );
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toHaveLength(1);
    expect(outcome).toBe("waiting");
    expect(before.store.shownQuantity(3)).toBe(9);
    expect([...before.storage.taps.values()].map((t) => t.key)).toEqual(["key-1"]);
    before.store.dispose();

    // Signed in again as the same user: a new store finds the change and sends it.
    signedIn = true;
    const after = storeOn(before.storage);
    await vi.waitFor(() => expect(seen.map((r) => r.key)).toEqual(["key-1", "key-1"]));
    await vi.waitFor(() => expect(after.store.pendingTaps(3)).toBe(0));
    expect(after.onRefused).not.toHaveBeenCalled();
    expect(after.store.shownQuantity(3)).toBe(9);
  });
});
