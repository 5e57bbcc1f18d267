import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com), with Node's crypto: no
 * library needed for an HMAC. A secret is `whsec_` + base64 of random bytes; the key is those
 * bytes. `webhook-signature` is `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 */
export const SECRET_PREFIX = "whsec_";

/** A new secret: 32 random bytes (the convention allows 24 to 64). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The HMAC key of a secret: its base64 part decoded (with or without the `whsec_` prefix). */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** The `webhook-signature` value of one attempt: `v1,<base64>`. */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of one attempt (the timestamp is the attempt's, so a retry is signed again). */
export function webhookHeaders(secret: string, messageId: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, messageId, timestamp, body),
  };
}

/**
 * True when one of the space-separated `v1,` signatures matches and the timestamp is within
 * `toleranceSeconds` of now (what a receiver checks; the tests and the example use it).
 */
export function verifyWebhook(
  secret: string,
  headers: { "webhook-id"?: string; "webhook-timestamp"?: string; "webhook-signature"?: string },
  body: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = headers["webhook-signature"];
  if (!id || !signatures || !Number.isInteger(timestamp)) return false;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body).slice(3), "base64");
  return signatures.split(" ").some((candidate) => {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
