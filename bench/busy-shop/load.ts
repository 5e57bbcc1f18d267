import { randomUUID } from "node:crypto";
import type { Transform } from "node:stream";
import { promisify } from "node:util";
import { brotliDecompress, createBrotliDecompress, createGunzip, createInflate, gunzip, inflate } from "node:zlib";
import { type Answer, newAgent, parse, request } from "./http.js";
import { sleep } from "./stats.js";

/** The load of the busy window: taps, an editing client, health probes, first loads. */

export interface KnownProduct {
  id: number;
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: number | null;
  quantity_on_hand: number;
  version: number;
}

/** A stop flag the loops poll; they end at their next step once it is set. */
export class Window {
  stopped = false;
  readonly startedAt = performance.now();
  elapsed(): number {
    return performance.now() - this.startedAt;
  }
}

// ---------------------------------------------------------------- first load

export interface FirstLoad {
  ms: number;
  ttfbMs: number;
  encoding: string;
  wireBytes: number;
  jsonBytes: number;
  decodeMs: number;
  parseMs: number;
  count: number;
  revision?: number;
  etag?: string;
  products: KnownProduct[];
}

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  br: promisify(brotliDecompress),
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
};

/** The body without its content-encoding, decompressed off the event loop (zlib's thread pool). */
async function decode(answer: Answer): Promise<Buffer> {
  const decoder = decoders[String(answer.headers["content-encoding"] ?? "identity")];
  return decoder ? decoder(answer.body) : answer.body;
}

const streamDecoders: Record<string, () => Transform> = {
  br: () => createBrotliDecompress(),
  gzip: () => createGunzip(),
  deflate: () => createInflate(),
};

/**
 * The decoded body's length, decoded as a stream and not kept: a load inside the busy window is
 * not parsed, and collecting the 45 MB it decodes to (zlib's Buffer.concat at the end) held the
 * bench's event loop for 100-700 ms on a loaded machine, delaying what its probes recorded.
 */
async function decodedLength(answer: Answer): Promise<number> {
  const make = streamDecoders[String(answer.headers["content-encoding"] ?? "identity")];
  if (!make) return answer.body.length;
  const zip = make();
  let bytes = 0;
  zip.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const ended = new Promise<void>((resolve, reject) => {
    zip.once("end", resolve);
    zip.once("error", reject);
  });
  zip.end(answer.body);
  await ended;
  return bytes;
}

export async function decodeJson(answer: Answer): Promise<unknown> {
  return JSON.parse((await decode(answer)).toString("utf8"));
}

/**
 * GET /api/products as a fresh client (new connection, no cache) that accepts gzip and brotli.
 * With `parse` false (a load inside the busy window) the JSON is not parsed: that would block the
 * bench's own event loop and delay what its sockets and probes record.
 */
export async function firstLoad(
  base: string,
  cookie: string,
  { parse = true, acceptEncoding = "gzip, br", query = "" } = {},
): Promise<FirstLoad> {
  const agent = newAgent(1);
  let ttfbAt = 0;
  try {
    const sentAt = performance.now();
    const answer = await request(`${base}/api/products${query}`, {
      headers: { cookie, "accept-encoding": acceptEncoding },
      agent,
      onHeaders: (t) => {
        ttfbAt = t;
      },
    });
    if (answer.status !== 200) throw new Error(`GET /api/products: HTTP ${answer.status}`);
    const t0 = performance.now();
    const json = parse ? await decode(answer) : undefined;
    const jsonBytes = json ? json.length : await decodedLength(answer);
    const t1 = performance.now();
    const products = json ? (JSON.parse(json.toString("utf8")) as KnownProduct[]) : [];
    const t2 = performance.now();
    const revision = answer.headers["x-catalogue-revision"];
    return {
      ms: answer.ms,
      ttfbMs: ttfbAt - sentAt,
      encoding: String(answer.headers["content-encoding"] ?? "none"),
      wireBytes: answer.body.length,
      jsonBytes,
      decodeMs: t1 - t0,
      parseMs: parse ? t2 - t1 : Number.NaN,
      count: parse ? products.length : Number.NaN,
      revision: revision === undefined ? undefined : Number(revision),
      etag: answer.headers.etag,
      products,
    };
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------- taps

export interface Tap {
  key: string;
  id: number;
  change: number;
  sentAt: number;
  answeredAt: number;
  status: number;
  /** quantity_on_hand of the answer (200 only). */
  quantityOnHand?: number;
  server: string;
  error?: string;
}

/**
 * Open-loop taps: `perSecond` PUT /api/products/{id}/quantity on random products, each with a
 * fresh Idempotency-Key, sent on schedule whether or not earlier ones have answered, spread
 * round-robin over `bases`. Stock is tracked from the answers so a tap never asks for < 0.
 */
export async function runTaps(
  window: Pick<Window, "stopped" | "startedAt">,
  bases: string[],
  cookie: string,
  products: Array<Pick<KnownProduct, "id" | "quantity_on_hand">>,
  perSecond: number,
  touched: (id: number) => void,
): Promise<Tap[]> {
  const agent = newAgent();
  const taps: Tap[] = [];
  const pending: Promise<void>[] = [];
  const interval = 1000 / perSecond;
  for (let n = 0; !window.stopped; n++) {
    const due = window.startedAt + n * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (window.stopped) break;
    const product = products[Math.floor(Math.random() * products.length)] as (typeof products)[number];
    const change = product.quantity_on_hand > 0 && Math.random() < 0.5 ? -1 : 1;
    const base = bases[n % bases.length] as string;
    touched(product.id);
    const tap: Tap = { key: randomUUID(), id: product.id, change, sentAt: performance.now(), answeredAt: 0, status: 0, server: base };
    taps.push(tap);
    pending.push(
      request(`${base}/api/products/${product.id}/quantity`, {
        method: "PUT",
        headers: { cookie, "idempotency-key": tap.key },
        json: { quantity_change: change, reason: "Streamer adjustment" },
        agent,
        timeoutMs: 120_000,
      }).then(
        (answer) => {
          tap.answeredAt = answer.doneAt;
          tap.status = answer.status;
          if (answer.status === 200) {
            const body = parse<{ quantity_on_hand: number }>(answer);
            tap.quantityOnHand = body.quantity_on_hand;
            product.quantity_on_hand = body.quantity_on_hand;
          }
        },
        (err: Error) => {
          tap.answeredAt = performance.now();
          tap.error = err.message;
        },
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  return taps;
}

// ---------------------------------------------------------------- the editing client

export interface EditStats {
  mode: "partial" | "full body";
  latencies: number[];
  ok: number;
  conflicts: number;
  other: number;
  otherStatuses: number[];
}

/**
 * One client editing: every ~`everyMs` a PUT /api/products/{id} that changes the vendor, sending
 * the version this client knows from its first load. Half of the picks are products that taps
 * changed since, so an edit based on an old version meets newer stock: merged (200) on servers
 * that merge edits, 409 on older ones. Sends only {vendor, version}; a 400 for that (servers
 * before merging edits want the whole body) switches to the full body.
 */
/** The editor's copy of the first load, for runEditor (100,000 copies: made before the window, not in it). */
export const editorCopy = (products: KnownProduct[]) => new Map(products.map((p) => [p.id, { ...p }]));

export async function runEditor(
  window: Window,
  base: string,
  cookie: string,
  products: KnownProduct[],
  /** The editor's own copy of the first load (what its screen shows; taps do not update it): editorCopy(), made before the window. */
  mine: Map<number, KnownProduct>,
  touched: Set<number>,
  everyMs = 500,
): Promise<EditStats> {
  const stats: EditStats = { mode: "partial", latencies: [], ok: 0, conflicts: 0, other: 0, otherStatuses: [] };
  for (let n = 0; !window.stopped; n++) {
    const started = performance.now();
    const tapped = [...touched];
    const id =
      n % 2 === 0 && tapped.length > 0
        ? (tapped[Math.floor(Math.random() * tapped.length)] as number)
        : (products[Math.floor(Math.random() * products.length)] as KnownProduct).id;
    const p = mine.get(id) as KnownProduct;
    const vendor = `Edited ${n}`;
    const full = { ...pick(p), vendor, version: p.version };
    const send = (body: Record<string, unknown>) =>
      request(`${base}/api/products/${id}`, { method: "PUT", headers: { cookie }, json: body, timeoutMs: 60_000 });
    let answer = await send(stats.mode === "partial" ? { vendor, version: p.version } : full);
    if (answer.status === 400 && stats.mode === "partial") {
      stats.mode = "full body";
      answer = await send(full);
    }
    stats.latencies.push(answer.ms);
    if (answer.status === 200) {
      stats.ok += 1;
      Object.assign(p, parse<KnownProduct>(answer));
    } else if (answer.status === 409) {
      stats.conflicts += 1;
      // As a client would: take the current product from the answer.
      const current = parse<{ product?: KnownProduct }>(answer).product;
      if (current) Object.assign(p, current);
    } else {
      stats.other += 1;
      stats.otherStatuses.push(answer.status);
    }
    const wait = everyMs - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  return stats;
}

const pick = (p: KnownProduct) => ({
  barcode: p.barcode,
  product_name: p.product_name,
  release_year: p.release_year,
  quantity_on_hand: p.quantity_on_hand,
});

// ---------------------------------------------------------------- probes

export interface ProbeStats {
  label: string;
  latencies: number[];
  failures: number;
  /** The slowest probe: when it was sent (ms into the window) and how long it took. */
  worst: { at: number; ms: number };
}

/**
 * GET `path` every `everyMs` on its own connection, one at a time: a stalled server shows as one
 * long latency (the stall), not a pile of queued probes.
 */
export async function runProbe(
  window: Pick<Window, "stopped" | "startedAt">,
  label: string,
  url: string,
  expected: number,
  everyMs = 20,
): Promise<ProbeStats> {
  const agent = newAgent(1);
  const stats: ProbeStats = { label, latencies: [], failures: 0, worst: { at: Number.NaN, ms: 0 } };
  let due = performance.now();
  while (!window.stopped) {
    const sentAt = performance.now();
    try {
      const answer = await request(url, { agent, timeoutMs: 120_000 });
      stats.latencies.push(answer.ms);
      if (answer.ms > stats.worst.ms) stats.worst = { at: sentAt - window.startedAt, ms: answer.ms };
      if (answer.status !== expected) stats.failures += 1;
    } catch {
      stats.failures += 1;
    }
    due += everyMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    else due = performance.now();
  }
  agent.destroy();
  return stats;
}
