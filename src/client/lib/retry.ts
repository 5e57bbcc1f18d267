import { ApiError } from "./http";

export type Sleep = (ms: number) => Promise<void>;
export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Worth another try: the request may not have reached the server, or the server was briefly unwell. */
export function isRetryable(err: unknown): boolean {
  return err instanceof ApiError && (err.isNetworkError || err.isTimeout || err.isServerError);
}

/** Calls `call`, and again after each delay while it fails with a retryable error. */
export async function withRetries<T>(call: () => Promise<T>, delaysMs: readonly number[], wait: Sleep = sleep): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const delay = delaysMs[attempt];
      if (delay === undefined || !isRetryable(err)) throw err;
      await wait(delay);
    }
  }
}
