import { ApiError } from "./http";

export type Sleep = (ms: number) => Promise<void>;
export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Worth another try: the request may not have reached the server, or the server was briefly unwell. */
export function isRetryable(err: unknown): boolean {
  return err instanceof ApiError && (err.isNetworkError || err.isTimeout || err.isServerError);
}

/** Gateway answers of a server that cannot answer now (restarting, its database down): nothing was done. */
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * The request did not reach a server able to answer: no network, a timeout (the answer may have
 * been lost), or 502/503/504. A quantity change then waits and goes again with its key; anything
 * else the server answered (4xx, 500) is its answer.
 */
export function isOutOfReach(err: unknown): boolean {
  return err instanceof ApiError && (err.isNetworkError || err.isTimeout || (err.status !== null && UNAVAILABLE.has(err.status)));
}

export interface RetryPolicy {
  /** The waits between tries, in order. */
  delaysMs: readonly number[];
  /**
   * Keep trying (repeating the last wait) until at least this long after the first try: a
   * database restart then ends in an answer rather than an error.
   */
  retryForMs?: number;
}

/**
 * Calls `call`, and again after each wait while it fails with a retryable error: once per
 * delay, or with `retryForMs` until that much time has passed. The last error is thrown.
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: readonly number[] | RetryPolicy,
  wait: Sleep = sleep,
  now: () => number = Date.now,
): Promise<T> {
  const { delaysMs, retryForMs }: RetryPolicy = "delaysMs" in policy ? policy : { delaysMs: policy };
  const started = now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isRetryable(err)) throw err;
      let delay = delaysMs[attempt];
      if (retryForMs !== undefined) {
        if (now() - started >= retryForMs) throw err;
        delay ??= delaysMs.at(-1);
      }
      if (delay === undefined) throw err;
      await wait(delay);
    }
  }
}
