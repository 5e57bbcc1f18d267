import { asc } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import type { InventoryUpdate } from "../../contract/events.js";
import type { Product } from "../../contract/products.js";
import type { Db } from "../db/client.js";
import { idempotencyKeys, productAudit, products, quantityAudit } from "../db/schema.js";

/** Test helpers of the products and import modules (real app, real database). */

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let barcodeSeq = 0;
export function newBarcode(prefix = "BC"): string {
  barcodeSeq += 1;
  return `${prefix}${Date.now().toString(36)}${barcodeSeq.toString().padStart(5, "0")}`;
}

/** app.inject with a session cookie. */
export function caller(app: FastifyInstance, cookie: string) {
  const call = (method: InjectOptions["method"], url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, payload?: unknown) => call("POST", url, payload),
    put: (url: string, payload?: unknown, headers?: Record<string, string>) => call("PUT", url, payload, headers),
    delete: (url: string) => call("DELETE", url),
    async create(overrides: Record<string, unknown> = {}): Promise<Product> {
      const res = await call("POST", "/api/products", {
        barcode: newBarcode(),
        product_name: "Test Card",
        vendor: "Topps",
        release_year: 2024,
        quantity_on_hand: 10,
        ...overrides,
      });
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
  };
}

/** Everything the products module writes, in a stable order, for "nothing changed" checks. */
export async function snapshot(db: Db) {
  return {
    products: await db.select().from(products).orderBy(asc(products.id)),
    productAudit: await db.select().from(productAudit).orderBy(asc(productAudit.id)),
    quantityAudit: await db.select().from(quantityAudit).orderBy(asc(quantityAudit.id)),
    idempotencyKeys: await db.select().from(idempotencyKeys).orderBy(asc(idempotencyKeys.key)),
  };
}

/** Collects inventory_update events raised on the app's bus until `stop()`. */
export function recordEvents(app: FastifyInstance) {
  const events: InventoryUpdate[] = [];
  const listener = (e: InventoryUpdate) => events.push(e);
  app.events.on("inventory_update", listener);
  return { events, stop: () => app.events.off("inventory_update", listener) };
}
