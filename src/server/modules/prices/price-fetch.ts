import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { AppError } from "../../app-error.js";
import { hostOf, type WebhookTargets } from "../webhooks/webhook-targets.js";
import type { FeedInput } from "./feeds/parse-feed.js";

/** How long the server waits for a feed it fetches from its URL (a whole bulk file streams in this time). */
const FETCH_TIMEOUT_MS = 10 * 60_000;

/**
 * A feed's file from its URL, streamed: only where webhooks may point too (the same refused
 * addresses, checked on what the name resolves to now, less WEBHOOK_ALLOWED_HOSTS). 502 when it
 * cannot be fetched.
 */
async function fetched(targets: WebhookTargets, raw: string): Promise<Readable> {
  const url = new URL(raw);
  const host = hostOf(url);
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
  const refused = addresses.some(({ address }) => targets.refusal(host, address) !== null);
  if (targets.nameRefused(host) || refused)
    throw new AppError(502, `The feed could not be fetched: ${host} is not an address the server fetches from`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "error" });
  } catch (err) {
    throw new AppError(502, `The feed could not be fetched: ${(err as Error).message}`);
  }
  if (!response.ok || !response.body) throw new AppError(502, `The feed could not be fetched: ${response.status} ${response.statusText}`);
  return Readable.fromWeb(response.body as ReadableStream<Uint8Array>);
}

/** What a feed with a URL reads: its file, or a TCGCSV group's products and prices. */
export async function fetchFeed(
  targets: WebhookTargets,
  feed: { format: string; url: string; products_url: string | null },
): Promise<FeedInput> {
  if (feed.format === "tcgcsv") {
    if (!feed.products_url) throw new AppError(400, "A TCGCSV feed fetched from its URL needs its products URL too");
    return { products: await fetched(targets, feed.products_url), prices: await fetched(targets, feed.url) };
  }
  return fetched(targets, feed.url);
}
