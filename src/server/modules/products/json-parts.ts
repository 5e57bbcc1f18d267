import { once } from "node:events";
import { Readable, type Transform } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";

/** Bytes per part: large enough for few parts, small enough that filling one is a moment's work. */
const PART_BYTES = 512 * 1024;
/** Bytes written between two turns of the event loop. */
const TURN_BYTES = 2 * 1024 * 1024;

/**
 * JSON text kept in parts of about half a megabyte. The catalogue list runs to tens of megabytes
 * at 100,000 products: joined as strings, encoded and concatenated into one buffer it would hold
 * the event loop for long stretches (and make garbage the collector then stops for), so it is
 * written straight into parts, a few megabytes per turn, and sent and compressed part by part.
 */
export class JsonParts {
  readonly bytes: number;
  private released = false;

  constructor(
    readonly parts: readonly Buffer[],
    private readonly pool?: PartPool,
  ) {
    this.bytes = parts.reduce((n, p) => n + p.length, 0);
  }

  /** A stream of the parts, for a reply (nothing copied). */
  stream(): Readable {
    this.check();
    return Readable.from(this.parts, { objectMode: false });
  }

  /** The whole text as one string: tests and small answers only. */
  toString(): string {
    this.check();
    return Buffer.concat(this.parts).toString("utf8");
  }

  /** Done with: the parts go back to the pool they came from (if any), for the next text written in it. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool?.give(this.parts);
  }

  private check(): void {
    if (this.released) throw new Error("JsonParts used after release()");
  }
}

/**
 * Part buffers kept for the next text written, for a text rebuilt again and again (the catalogue
 * list, tens of megabytes): new buffers of that size at every build count against V8's external
 * memory, and each build would set off a major garbage collection of the whole heap that frees no
 * heap memory, a pause for every request. Only buffers given back
 * (release()) are handed out again.
 */
export class PartPool {
  private readonly free: Buffer[] = [];

  /** A part buffer of PART_BYTES. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(PART_BYTES);
  }

  /** Parts written in buffers of this pool (a larger one, made for one long item, is left to the collector). */
  give(parts: readonly Buffer[]): void {
    for (const part of parts) {
      if (part.buffer.byteLength === PART_BYTES) this.free.push(Buffer.from(part.buffer, 0, PART_BYTES));
    }
  }
}

/**
 * `open` + the items' JSON texts joined by commas + `close`, written into parts (no string of
 * the whole, no copy of it), yielding to the event loop every few megabytes. With a `pool`, the
 * parts are taken from it (release() gives them back).
 */
export async function joinJsonParts<T>(
  items: readonly T[],
  text: (item: T) => string,
  open: string,
  close: string,
  pool?: PartPool,
): Promise<JsonParts> {
  const parts: Buffer[] = [];
  const take = (bytes: number) => (pool && bytes <= PART_BYTES ? pool.take() : Buffer.allocUnsafe(Math.max(PART_BYTES, bytes)));
  let part = take(0);
  let used = 0;
  let sinceTurn = 0;
  const write = (s: string) => {
    const bytes = Buffer.byteLength(s);
    if (used + bytes > part.length) {
      if (used > 0) parts.push(part.subarray(0, used));
      part = take(bytes);
      used = 0;
    }
    used += part.write(s, used);
    sinceTurn += bytes;
  };
  write(open);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) write(",");
    write(text(items[i] as T));
    if (sinceTurn >= TURN_BYTES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  write(close);
  parts.push(part.subarray(0, used));
  return new JsonParts(parts, pool);
}

/** The parts through a zlib stream (the compression runs in the thread pool, a part at a time); the compressed bytes. */
export async function compressParts(json: JsonParts, zip: Transform): Promise<Buffer> {
  const out: Buffer[] = [];
  zip.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = once(zip, "end");
  ended.catch(() => {}); // awaited below; a failure while a write waits is thrown there
  for (const part of json.parts) {
    if (!zip.write(part)) await once(zip, "drain");
  }
  zip.end();
  await ended;
  return Buffer.concat(out);
}
