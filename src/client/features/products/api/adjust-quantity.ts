import type { Product, QuantityChangeBody } from "../../../../contract/products";
import { IDEMPOTENCY_HEADER } from "../../../../contract/rules";
import { apiFetch } from "../../../lib/http";

/** A fresh key per change; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One send of PUT /api/products/{id}/quantity with its Idempotency-Key: the server applies the
 * change once however many times it is sent with that key. No retry here: the product store's
 * queue (store/tap-queue.ts) decides when a change goes again, always with the same key.
 */
export function adjustQuantity(id: number, body: QuantityChangeBody, key: string = newIdempotencyKey()): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}/quantity`, { method: "PUT", body, headers: { [IDEMPOTENCY_HEADER]: key } });
}
