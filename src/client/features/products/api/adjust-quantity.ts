import { IDEMPOTENCY_HEADER, type Product, type QuantityChangeBody } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";

/** A fresh Idempotency-Key; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** PUT /api/products/{id}/quantity with an Idempotency-Key (one per change): the updated product. */
export function adjustQuantity(id: number, body: QuantityChangeBody, key: string = newIdempotencyKey()): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}/quantity`, {
    method: "PUT",
    body,
    headers: { [IDEMPOTENCY_HEADER]: key },
  });
}
