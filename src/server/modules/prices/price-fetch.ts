import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AppError } from "../../app-error.js";
import { guardedLookup, hostOf, type WebhookTargets } from "../webhooks/webhook-targets.js";
import type { FeedInput } from "./feeds/parse-feed.js";

/** How long the server waits for a feed it fetches from its URL (a whole bulk file streams in this time). */
const FETCH_TIMEOUT_MS = 10 * 60_000;

const unreachable = (why: string) => new AppError(502, `The feed could not be fetched: ${why}`);

/**
 * A feed's file from its URL, streamed: connected only where webhooks may point too, through the
 * webhook sender's guarded lookup (the addresses checked are the ones connected to; less
 * WEBHOOK_ALLOWED_HOSTS). A connection of its own (never one kept alive from another request, which
 * would skip the lookup), no redirects. 502 when it cannot be fetched.
 */
function fetched(targets: WebhookTargets, raw: string): Promise<IncomingMessage> {
  const url = new URL(raw);
  const host = hostOf(url);
  if (isIP(host) ? targets.refusal(host, host) !== null : targets.nameRefused(host)) {
    return Promise.reject(unreachable(`${host} is not an address the server fetches from`));
  }
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.get(
      url,
      { agent: false, lookup: guardedLookup(targets), signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(response);
        response.resume();
        reject(unreachable(`${status} ${response.statusMessage ?? ""}`.trim()));
      },
    );
    request.on("error", (err) => reject(unreachable(err.message)));
  });
}

/**
 * The groups list of a TCGCSV group's prices address, as TCGCSV publishes it: `.../{categoryId}/{groupId}/prices`
 * has its group in `.../{categoryId}/groups`. Undefined for an address not of that shape.
 */
export function tcgcsvGroupsUrl(pricesUrl: string): string | undefined {
  const url = new URL(pricesUrl);
  const match = /^(.*\/)(\d+)\/\d+\/prices\/?$/.exec(url.pathname);
  if (!match) return undefined;
  return new URL(`${match[1]}${match[2]}/groups`, url.origin).toString();
}

/**
 * What a feed with a URL reads: its file, or a TCGCSV group's products and prices with the
 * category's groups (so its cards have their set, and match by set + number too), when its prices
 * address is TCGCSV's `.../{categoryId}/{groupId}/prices`.
 */
export async function fetchFeed(
  targets: WebhookTargets,
  feed: { format: string; url: string; products_url: string | null },
): Promise<FeedInput> {
  if (feed.format === "tcgcsv") {
    if (!feed.products_url) throw new AppError(400, "A TCGCSV feed fetched from its URL needs its products URL too");
    const groupsUrl = tcgcsvGroupsUrl(feed.url);
    const opened: IncomingMessage[] = [];
    const open = async (url: string) => {
      const response = await fetched(targets, url);
      opened.push(response);
      return response;
    };
    try {
      const products = await open(feed.products_url);
      const groups = groupsUrl ? await open(groupsUrl) : undefined;
      const prices = await open(feed.url);
      return groups ? { products, groups, prices } : { products, prices };
    } catch (err) {
      // One of them could not be fetched: the others' connections are let go.
      for (const response of opened) response.destroy();
      throw err;
    }
  }
  return fetched(targets, feed.url);
}
