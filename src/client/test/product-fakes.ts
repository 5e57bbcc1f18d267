import type { InventoryUpdate } from "../../contract/events";
import type { Product, ProductsSince, QuantityChangeBody } from "../../contract/products";
import { NO_DETAILS } from "../../contract/rules";
import type { ProductList, ProductStoreApi } from "../features/products";

/** Test helpers for the product store: a product, an inventory_update, and a fake server whose calls wait for the test. */
export function fakeProduct(id: number, revision: number, fields: Partial<Product> = {}): Product {
  return {
    id,
    barcode: `code-${id}`,
    product_name: `Card ${id}`,
    vendor: "Topps",
    release_year: 2024,
    quantity_on_hand: 10,
    ...NO_DETAILS,
    photos: [],
    is_active: true,
    version: 1,
    revision,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

export function fakeEvent(type: InventoryUpdate["type"], data: Partial<InventoryUpdate["data"]>, userId = 2): InventoryUpdate {
  return { type, data: { updated_by: "sam", ...data }, timestamp: "2026-01-01T00:00:00.000Z", userId };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every call is recorded and waits until the test answers it. */
export function fakeApi() {
  const calls = {
    list: [] as Deferred<ProductList>[],
    first: [] as Deferred<Product[]>[],
    since: [] as Array<{ revision: number; answer: Deferred<ProductsSince> }>,
    lookup: [] as Array<{ barcode: string; answer: Deferred<Product | null> }>,
    adjust: [] as Array<{ id: number; body: QuantityChangeBody; key: string; answer: Deferred<Product> }>,
  };
  let keys = 0;
  const api: ProductStoreApi = {
    list: () => {
      const d = deferred<ProductList>();
      calls.list.push(d);
      return d.promise;
    },
    first: () => {
      const d = deferred<Product[]>();
      calls.first.push(d);
      return d.promise;
    },
    since: (revision) => {
      const answer = deferred<ProductsSince>();
      calls.since.push({ revision, answer });
      return answer.promise;
    },
    lookup: (barcode) => {
      const answer = deferred<Product | null>();
      calls.lookup.push({ barcode, answer });
      return answer.promise;
    },
    adjust: (id, body, key) => {
      const answer = deferred<Product>();
      calls.adjust.push({ id, body, key, answer });
      return answer.promise;
    },
    newKey: () => `key-${++keys}`,
  };
  return { api, calls };
}
