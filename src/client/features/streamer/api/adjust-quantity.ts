import { IDEMPOTENCY_HEADER, type Product, type QuantityChangeBody } from "../../../../contract/products";
import { ApiError, apiFetch } from "../../../lib/http";

/** A fresh key per tap; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Worth another try with the same key: the change may or may not have reached the server. */
export function isRetryable(err: unknown): boolean {
  return err instanceof ApiError && (err.isNetworkError || err.isTimeout || err.isServerError);
}

const RETRY_DELAYS_MS = [300, 1000, 2500];

/**
 * PUT /api/products/{id}/quantity with an Idempotency-Key. A lost answer is retried with the
 * same key, so the server applies the tap once however many times it is sent.
 */
export async function adjustQuantity(
  id: number,
  body: QuantityChangeBody,
  key: string = newIdempotencyKey(),
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  /** Server origin; same origin in the app. */
  origin = "",
): Promise<Product> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiFetch<Product>(`${origin}/api/products/${id}/quantity`, {
        method: "PUT",
        body,
        headers: { [IDEMPOTENCY_HEADER]: key },
      });
    } catch (err) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isRetryable(err)) throw err;
      await sleep(delay);
    }
  }
}
