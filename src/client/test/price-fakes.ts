import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserEvent } from "@testing-library/user-event";
import type { FeedRun, PriceFeed, PriceProposal, ProductMarket } from "../../contract/prices";
import { answerJson } from "./test-server";

/** Test data of the prices feature: a proposal, a feed, a run and a product's market. */
export function fakeProposal(id: number, fields: Partial<PriceProposal> = {}): PriceProposal {
  return {
    id,
    product_id: 100 + id,
    barcode: `20000000000${id}`,
    product_name: `Card ${id}`,
    quantity_on_hand: 1,
    old_price: 1000,
    new_price: 1100,
    market: 1100,
    estimated: false,
    change_percent: 10,
    at_stake: 100,
    big: false,
    steps: [{ rule: "market", text: "Near Mint: market $11.00", cents: 1100 }],
    created_at: "2026-03-14T08:00:00.000Z",
    ...fields,
  };
}

export function fakeRun(fields: Partial<FeedRun> = {}): FeedRun {
  return {
    id: 1,
    feed_id: 1,
    status: "done",
    trigger: "upload",
    day: "2026-03-14",
    records: 120,
    matched: 100,
    proposals: 12,
    problems: [],
    error: null,
    started_at: "2026-03-14T08:00:00.000Z",
    finished_at: "2026-03-14T08:00:05.000Z",
    ...fields,
  };
}

export function fakeFeed(id: number, fields: Partial<PriceFeed> = {}): PriceFeed {
  return {
    id,
    name: `Feed ${id}`,
    format: "csv",
    url: null,
    products_url: null,
    created_at: "2026-03-01T08:00:00.000Z",
    last_run: null,
    ...fields,
  };
}

export function fakeMarket(productId: number, fields: Partial<ProductMarket> = {}): ProductMarket {
  return {
    product_id: productId,
    ids: { tcgplayer_product_id: null, scryfall_id: null, pokemontcg_id: null, external_ids: {}, finish: "normal", price_frozen: false },
    latest: null,
    history: [],
    ...fields,
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * A test server's handler from routes ("GET /api/prices/feeds": a function answering status and
 * body); every request is kept in `seen` (JSON bodies parsed). The shop's settings are USD in UTC
 * unless a route says otherwise; anything else is a 404.
 */
export function routes(table: Record<string, (req: SeenRequest) => [number, unknown]>) {
  const seen: SeenRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? "/", "http://test");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a file upload): kept as text.
    }
    const request = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body };
    seen.push(request);
    const route = table[`${request.method} ${request.path}`];
    if (route) {
      const [status, answer] = route(request);
      return answerJson(res, status, answer);
    }
    if (request.path === "/api/settings") return answerJson(res, 200, { currency: "USD", timezone: "UTC" });
    answerJson(res, 404, { error: `no route ${request.method} ${request.path}` });
  };
  return { seen, handle };
}

/** How long a test waits for what a chain of calls to the test server shows: a busy machine's worker takes more than findBy's default second. */
export const SLOW = { timeout: 5_000 };

/** Puts `text` in a field as a paste (its old text cleared): typing it key by key is most of a form test's time. */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text) await user.paste(text);
}
