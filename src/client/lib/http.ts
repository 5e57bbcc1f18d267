import { HTTP_TIMEOUT_MS } from "../../contract/rules";
import { takeEarlyAnswer } from "./early-requests";

/** Every failed request as one error: its message, status, data, and whether it was the network, a timeout, 5xx or 4xx. */
export class ApiError extends Error {
  readonly status: number | null;
  readonly data: unknown;
  readonly isNetworkError: boolean;
  readonly isTimeout: boolean;
  readonly isServerError: boolean;
  readonly isClientError: boolean;

  constructor(message: string, opts: { status?: number | null; data?: unknown; network?: boolean; timeout?: boolean } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = opts.status ?? null;
    this.data = opts.data ?? null;
    this.isNetworkError = opts.network ?? false;
    this.isTimeout = opts.timeout ?? false;
    this.isServerError = this.status !== null && this.status >= 500;
    this.isClientError = this.status !== null && this.status >= 400 && this.status < 500;
  }
}

export const NETWORK_ERROR_MESSAGE = "Network error. Please check your connection.";
export const TIMEOUT_ERROR_MESSAGE = "Request timeout. Please try again.";
export const UNEXPECTED_ERROR_MESSAGE = "An unexpected error occurred";

/** An error's own text, else the fallback (the spec's 'Failed to ...' messages). */
export function messageOr(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

export const LOAD_ERROR_FALLBACK = "An error occurred";

/** What a list shows in its place when loading failed: the error's text, else 'An error occurred'. */
export function loadErrorText(err: { message?: unknown } | null): string {
  return typeof err?.message === "string" && err.message.trim() ? err.message : LOAD_ERROR_FALLBACK;
}

/** Message from an error body: field `error`, else `message`, else 'HTTP {status} Error'. */
export function messageFromBody(data: unknown, status: number): string {
  if (data && typeof data === "object") {
    const { error, message } = data as { error?: unknown; message?: unknown };
    if (typeof error === "string" && error) return error;
    if (typeof message === "string" && message) return message;
  }
  return `HTTP ${status} Error`;
}

/** Turns anything thrown by a request into an ApiError with the spec's messages. */
export function normaliseError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return new ApiError(TIMEOUT_ERROR_MESSAGE, { timeout: true });
  }
  if (err instanceof TypeError) return new ApiError(NETWORK_ERROR_MESSAGE, { network: true });
  if (err instanceof Error && err.message) return new ApiError(err.message);
  return new ApiError(UNEXPECTED_ERROR_MESSAGE);
}

export interface ApiFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData goes as it is, multipart/form-data (a file upload). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Caller's abort (e.g. a query being cancelled); the 10 s timeout applies in any case. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Made without a session (sign-in): its 401 is an answer (wrong password), not a session that ended. */
  anonymous?: boolean;
  /**
   * Reads a successful answer's body itself (a large list, in slices as it downloads); else the
   * body is read as text and given to JSON.parse. A body it cannot read or parse is one that broke off.
   */
  parse?: (response: Response) => Promise<unknown>;
  /** A GET the page's head may have sent already (lib/early-requests.ts): that answer, taken once, stands for this call's request. */
  early?: boolean;
}

/**
 * The one reaction to a 401: the session ended (expired, signed out elsewhere, the account
 * disabled or its password reset). apiFetch calls it for every 401 of a call made with a
 * session, whichever screen or store made the call; the auth feature sets it (signs out to the
 * sign-in screen). Answers a function that removes it.
 */
let sessionEnded: (() => void) | null = null;
export function onSessionEnded(handler: () => void): () => void {
  sessionEnded = handler;
  return () => {
    if (sessionEnded === handler) sessionEnded = null;
  };
}

/**
 * Every call to the server, JSON or a file upload (FormData): same origin, cookies sent, a 10 s
 * timeout unless the call sets its own (for the whole answer, body included), and errors
 * normalised in every phase (no answer, an error status, a body that stalls or breaks off). A 401
 * also tells `onSessionEnded`'s handler, before the caller hears of it. No other client code
 * calls fetch (the page head's early requests are answers this takes, `early`).
 */
export async function apiFetch<T>(path: string, opts: ApiFetchOptions = {}): Promise<T> {
  return (await apiRequest<T>(path, opts)).data;
}

/** apiFetch that also answers the response's headers (e.g. the catalogue revision). */
export async function apiRequest<T>(path: string, opts: ApiFetchOptions = {}): Promise<{ data: T; headers: Headers }> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? HTTP_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let response: Response;
  const body = opts.body instanceof FormData ? opts.body : opts.body === undefined ? undefined : JSON.stringify(opts.body);
  // Content-Type only with a JSON body: a body-less POST (logout) must not claim an empty JSON
  // body, and a FormData's type names its boundary, which fetch sets.
  const json = typeof body === "string";
  try {
    response = await ((opts.early ? takeEarlyAnswer(path) : undefined) ??
      fetch(path, {
        method: opts.method ?? "GET",
        credentials: "include",
        headers: { Accept: "application/json", ...(json ? { "Content-Type": "application/json" } : {}), ...opts.headers },
        body,
        signal,
      }));
  } catch (err) {
    if (timeout.aborted) throw new ApiError(TIMEOUT_ERROR_MESSAGE, { timeout: true });
    throw normaliseError(err);
  }
  const brokenOff = (err: unknown) => {
    // The answer started but its body stalled or the connection dropped half-way.
    if (timeout.aborted) return new ApiError(TIMEOUT_ERROR_MESSAGE, { timeout: true });
    if (opts.signal?.aborted) return normaliseError(err);
    return new ApiError(NETWORK_ERROR_MESSAGE, { network: true });
  };
  if (response.ok && opts.parse) {
    try {
      return { data: (await opts.parse(response)) as T, headers: response.headers };
    } catch (err) {
      throw brokenOff(err);
    }
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw brokenOff(err);
  }
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (response.status === 401 && !opts.anonymous) sessionEnded?.();
  if (!response.ok) throw new ApiError(messageFromBody(data, response.status), { status: response.status, data });
  return { data: data as T, headers: response.headers };
}
