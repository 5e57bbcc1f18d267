import { IDEMPOTENCY_HEADER, type Product, type QuantityChangeBody } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { type Sleep, sleep, withRetries } from "../../../lib/retry";

/** A fresh key per change; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const RETRY_DELAYS_MS = [300, 1000, 2500];

/**
 * PUT /api/products/{id}/quantity with an Idempotency-Key. A lost answer is retried with the
 * same key, so the server applies the change once however many times it is sent.
 */
export function adjustQuantity(
  id: number,
  body: QuantityChangeBody,
  key: string = newIdempotencyKey(),
  wait: Sleep = sleep,
  /** Server origin; same origin in the app. */
  origin = "",
): Promise<Product> {
  return withRetries(
    () => apiFetch<Product>(`${origin}/api/products/${id}/quantity`, { method: "PUT", body, headers: { [IDEMPOTENCY_HEADER]: key } }),
    RETRY_DELAYS_MS,
    wait,
  );
}
