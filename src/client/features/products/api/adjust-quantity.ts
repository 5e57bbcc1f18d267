import type { Product, QuantityChangeBody } from "../../../../contract/products";
import { IDEMPOTENCY_HEADER } from "../../../../contract/rules";
import { apiFetch } from "../../../lib/http";
import { type RetryPolicy, type Sleep, sleep, withRetries } from "../../../lib/retry";

/** A fresh key per change; crypto.randomUUID needs a secure context, so fall back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A tap rides out a database restart: lost answers, timeouts and 5xx (503 while the database is
 * down) are retried with the same key for at least 30 s; the tap shows as pending meanwhile.
 */
export const TAP_RETRY: RetryPolicy = { delaysMs: [300, 1000, 2000, 3000, 5000], retryForMs: 30_000 };

export interface AdjustQuantityOptions {
  /** Server origin; same origin in the app. */
  origin?: string;
  /** The clock the retries run on (tests pass a fake one). */
  wait?: Sleep;
  now?: () => number;
}

/**
 * PUT /api/products/{id}/quantity with an Idempotency-Key. A lost answer is retried with the
 * same key, so the server applies the change once however many times it is sent; a refusal
 * (4xx) is not retried and carries the server's reason, as does the last error after 30 s.
 */
export function adjustQuantity(
  id: number,
  body: QuantityChangeBody,
  key: string = newIdempotencyKey(),
  { origin = "", wait = sleep, now = Date.now }: AdjustQuantityOptions = {},
): Promise<Product> {
  return withRetries(
    () => apiFetch<Product>(`${origin}/api/products/${id}/quantity`, { method: "PUT", body, headers: { [IDEMPOTENCY_HEADER]: key } }),
    TAP_RETRY,
    wait,
    now,
  );
}
