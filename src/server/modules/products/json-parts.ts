import { once } from "node:events";
import { Readable, type Transform } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";

/** Bytes per part: large enough for few parts, small enough that filling one is a moment's work. */
const PART_BYTES = 512 * 1024;
/** Bytes written between two turns of the event loop. */
const TURN_BYTES = 2 * 1024 * 1024;

/** Buffers as one stream of bytes to send (one after the other, never joined): a list's parts, a copy's chunks. */
export const buffersStream = (buffers: readonly Buffer[]) => Readable.from(buffers, { objectMode: false });

/**
 * JSON text kept in parts of about half a megabyte. The catalogue list runs to tens of megabytes
 * at 100,000 products: joined as strings, encoded and concatenated into one buffer it would hold
 * the event loop for long stretches (and make garbage the collector then stops for), so it is
 * written straight into parts, a few megabytes per turn, and sent and compressed part by part.
 */
export class JsonParts {
  readonly bytes: number;
  private released = false;

  constructor(readonly parts: readonly Buffer[]) {
    this.bytes = parts.reduce((n, p) => n + p.length, 0);
  }

  /** A stream of the parts, for a reply (nothing copied). */
  stream(): Readable {
    this.check();
    return buffersStream(this.parts);
  }

  /** The whole text as one string: tests and small answers only. */
  toString(): string {
    this.check();
    return Buffer.concat(this.parts).toString("utf8");
  }

  /** Done with: using it again is a bug (the caller's answer has been sent). */
  release(): void {
    this.released = true;
  }

  private check(): void {
    if (this.released) throw new Error("JsonParts used after release()");
  }
}

/**
 * `open` + the items' JSON texts joined by commas + `close`, written into parts (no string of
 * the whole, no copy of it), yielding to the event loop every few megabytes.
 */
export async function joinJsonParts<T>(items: ArrayLike<T>, text: (item: T) => string, open: string, close: string): Promise<JsonParts> {
  const parts: Buffer[] = [];
  const take = (bytes: number) => Buffer.allocUnsafe(Math.max(PART_BYTES, bytes));
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
  return new JsonParts(parts);
}

/** Compressed bytes in the chunks a zlib stream gave them in; `length`: their total. */
export interface CompressedCopy {
  chunks: readonly Buffer[];
  length: number;
}

/** A list's compressed copy, and the length of its text in bytes. */
export interface CompressedList {
  compressed: CompressedCopy;
  bytes: number;
}

/** Bytes of a list's text written into a zip stream at a time (two such buffers, taking turns). */
const ZIP_PART_BYTES = 256 * 1024;

/**
 * `open` + the items' texts joined by commas + `close` through a zlib stream, each text made as it
 * is written (a product's from its values: catalogue-mirror.ts), the whole never in memory: written into two part buffers that take turns (one is compressed in the thread pool
 * while the next is filled). The catalogue's list runs to tens of megabytes at 100,000 products;
 * kept whole (or its parts kept for the next build) it held that much more memory for good, and
 * new buffers of that size at each build set off major collections. Answers the compressed copy as
 * zlib gave it, in chunks (joined into one buffer, the copy would be held twice as the build ends,
 * and the chunks left as garbage for the collector), and the text's length in bytes.
 */
export async function compressJoined<T>(
  items: ArrayLike<T>,
  text: (item: T) => string,
  open: string,
  close: string,
  zip: Transform,
): Promise<CompressedList> {
  const chunks: Buffer[] = [];
  let length = 0;
  zip.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  });
  const ended = once(zip, "end");
  ended.catch(() => {}); // awaited below; a failure while a write waits is thrown there
  // The part being filled, and the other one with the promise of its last write.
  let part = Buffer.allocUnsafe(ZIP_PART_BYTES);
  let other = { part: Buffer.allocUnsafe(ZIP_PART_BYTES), written: Promise.resolve() };
  const send = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      zip.write(chunk, (err) => (err ? reject(err) : resolve()));
    });
  let used = 0;
  let bytes = 0;
  /** Sends the filled part, then waits until the other one is compressed before writing into it. */
  const flush = async () => {
    if (used === 0) return;
    const sent = { part, written: send(part.subarray(0, used)) };
    await other.written;
    part = other.part;
    other = sent;
    used = 0;
  };
  /** Copies `text` into the part; a promise only when the part had to be sent first (most items wait for nothing). */
  const write = (text: string): Promise<void> | undefined => {
    const length = Buffer.byteLength(text);
    bytes += length;
    if (used + length <= ZIP_PART_BYTES) {
      used += part.write(text, used);
      return undefined;
    }
    return flush().then(() => {
      if (length > ZIP_PART_BYTES) return send(Buffer.from(text));
      used += part.write(text, used);
    });
  };
  await write(open);
  for (let i = 0; i < items.length; i++) {
    const comma = i > 0 ? write(",") : undefined;
    if (comma) await comma;
    const item = write(text(items[i] as T));
    if (item) await item;
  }
  await write(close);
  await flush();
  await other.written;
  zip.end();
  await ended;
  return { compressed: { chunks, length }, bytes };
}
