import { type LookupAddress, lookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isLinkLocalAddress, WEBHOOK_MESSAGES } from "../../../contract/webhooks.js";

/** What one attempt got: a 2xx within the timeout is success; anything else is retried. */
export interface AttemptResult {
  ok: boolean;
  /** The answer's HTTP status, null when there was none (timeout, refused, DNS). */
  status: number | null;
  /** What went wrong, null on success. */
  error: string | null;
}

/** The first bytes of an answer kept in the delivery log. */
const ANSWER_BYTES = 300;

/**
 * Name resolution that refuses link-local addresses (169.254.0.0/16, fe80::/10): checked on the
 * address the connection is made to, at send time, so a name that resolves there later (or
 * differently for us than when the webhook was saved) is refused too.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(
    hostname,
    { family: options.family, hints: options.hints, all: true },
    (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const bad = addresses.find((a) => isLinkLocalAddress(a.address));
      if (bad) {
        const refusal = Object.assign(new Error(`${WEBHOOK_MESSAGES.linkLocal}: ${hostname} is ${bad.address}`), { code: "ELINKLOCAL" });
        return callback(refusal, "", 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    },
  );
};

/**
 * POSTs one delivery: JSON body, the signature headers, at most `timeoutMs` from the first byte
 * sent to the answer's status and first bytes. Never throws.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done({ ok: false, status: null, error: WEBHOOK_MESSAGES.urlInvalid });
    }
    const host = target.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && isLinkLocalAddress(host)) return done({ ok: false, status: null, error: WEBHOOK_MESSAGES.linkLocal });
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(target, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Blez-Inventory-Webhooks/1", ...headers },
      lookup: guardedLookup,
      signal: options.signal,
    });
    const timer = setTimeout(() => {
      request.destroy();
      done({ ok: false, status: null, error: `No answer within ${options.timeoutMs / 1000} s` });
    }, options.timeoutMs);
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      const finish = () => {
        const text = Buffer.concat(chunks).toString("utf8").slice(0, ANSWER_BYTES).trim();
        done({ ok, status, error: ok ? null : `HTTP ${status}${text ? `: ${text}` : ""}` });
      };
      response.on("end", finish);
      response.on("error", finish);
    });
    request.on("error", (err: NodeJS.ErrnoException) => {
      const reason = err.code === "ELINKLOCAL" ? err.message : `${err.code ? `${err.code}: ` : ""}${err.message}`;
      done({ ok: false, status: null, error: options.signal?.aborted ? "Cancelled: the server stopped" : reason });
    });
    request.end(body);
  });
}
