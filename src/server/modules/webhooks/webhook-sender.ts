import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { WEBHOOK_FAILURES } from "../../../contract/webhooks.js";
import { guardedLookup, hostOf, NOT_ALLOWED, type WebhookTargets } from "./webhook-targets.js";

/** What one attempt got: a 2xx within the timeout is success; anything else is retried. */
export interface AttemptResult {
  ok: boolean;
  /** The answer's HTTP status, null when there was none (timeout, refused, DNS). */
  status: number | null;
  /** Why it failed, in our words (WEBHOOK_FAILURES, or `HTTP <status>`); null on success. */
  error: string | null;
}

/** An answer's body is never read: up to this much is drained (so the connection serves the next delivery), then dropped. */
const DRAIN_BYTES = 16 * 1024;
const DRAIN_MS = 1_000;

/** A failed connection or request in the delivery log's words: never the error's own text. */
export function failureReason(err: NodeJS.ErrnoException): string {
  const code = err.code ?? "";
  if (code === NOT_ALLOWED) return WEBHOOK_FAILURES.notAllowed;
  if (code === "ECONNREFUSED") return WEBHOOK_FAILURES.refused;
  if (code === "ECONNRESET" || code === "EPIPE") return WEBHOOK_FAILURES.reset;
  if (code === "ETIMEDOUT" || code === "ECONNABORTED") return WEBHOOK_FAILURES.timeout;
  if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_NODATA") return WEBHOOK_FAILURES.nameNotFound;
  if (code.startsWith("EAI_")) return WEBHOOK_FAILURES.nameLookup;
  if (["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN"].includes(code)) return WEBHOOK_FAILURES.unreachable;
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/.test(code)) return WEBHOOK_FAILURES.tls;
  if (code.startsWith("HPE_")) return WEBHOOK_FAILURES.badAnswer;
  return WEBHOOK_FAILURES.failed;
}

/** Throws the answer's body away unread: drained while it is small and quick, else the connection is dropped. */
function discard(response: IncomingMessage): void {
  let size = 0;
  const drop = setTimeout(() => response.destroy(), DRAIN_MS);
  drop.unref();
  response.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > DRAIN_BYTES) response.destroy();
  });
  response.on("close", () => clearTimeout(drop));
  response.on("error", () => {});
}

/**
 * POSTs one delivery: JSON body, the signature headers, at most `timeoutMs` from the first byte
 * sent to the answer's status. Only the status is kept. Never throws.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; targets: WebhookTargets; signal?: AbortSignal },
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    // Declared first: a refusal below settles before any timer is set.
    let timer: NodeJS.Timeout | undefined;
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const failed = (error: string) => done({ ok: false, status: null, error });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed(WEBHOOK_FAILURES.invalidUrl);
    }
    // An address in the URL is connected to without a lookup: checked here.
    const host = hostOf(target);
    const refused = isIP(host) ? options.targets.refusal(host, host) !== null : options.targets.nameRefused(host);
    if (refused) return failed(WEBHOOK_FAILURES.notAllowed);
    const client = target.protocol === "https:" ? https : http;
    let request: http.ClientRequest;
    try {
      request = client.request(target, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Blez-Inventory-Webhooks/1", ...headers },
        lookup: guardedLookup(options.targets),
        signal: options.signal,
      });
    } catch (err) {
      // A header value node refuses (say, a character it may not send): this attempt fails, never the caller.
      return failed(failureReason(err as NodeJS.ErrnoException));
    }
    timer = setTimeout(() => {
      request.destroy();
      failed(WEBHOOK_FAILURES.timeout);
    }, options.timeoutMs);
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      done({ ok, status, error: ok ? null : `HTTP ${status}` });
      discard(response);
    });
    request.on("error", (err: NodeJS.ErrnoException) => failed(options.signal?.aborted ? "cancelled" : failureReason(err)));
    request.end(body);
  });
}
