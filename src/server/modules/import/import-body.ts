import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { IMPORT_MAX_ROWS, importRowInputSchema } from "../../../contract/import.js";
import { AppError } from "../../app-error.js";
import { runningBuilt } from "../../paths.js";
import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from "../../plugins/json-body.js";

/** Rows per stored chunk: a batch never spans two chunks, so this is also the largest batch. */
export const IMPORT_CHUNK_ROWS = 1_000;
/** Bodies from this size on are read in a worker thread: JSON.parse of a large body would hold the event loop. */
const WORKER_FROM_BYTES = 256 * 1024;

/**
 * An import body as read off the event loop: its rows checked for shape and cut into chunks of
 * JSON text, stored as they are (the database parses them) and parsed here only for a dry run.
 * The chunks arrive as one block of UTF-8 (moved from the reading thread, not copied) and each is
 * decoded when first asked for: taking a large body's strings back in one piece would hold the
 * event loop at the import's start.
 */
export class ImportBody {
  /** Rows the server made itself (accepted price proposals), cut into chunks like a body read off the wire. */
  static ofRows(rows: readonly unknown[], firstRow?: number): ImportBody {
    const encoder = new TextEncoder();
    const parts: Uint8Array[] = [];
    const ends: number[] = [];
    let end = 0;
    for (let at = 0; at < rows.length; at += IMPORT_CHUNK_ROWS) {
      const part = encoder.encode(JSON.stringify(rows.slice(at, at + IMPORT_CHUNK_ROWS)));
      parts.push(part);
      end += part.length;
      ends.push(end);
    }
    const bytes = new Uint8Array(end);
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    return new ImportBody(bytes, ends, rows.length, firstRow);
  }

  private readonly texts: Array<string | undefined> = [];
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly bytes: Uint8Array,
    /** Where each chunk's bytes end in `bytes`. */
    private readonly ends: readonly number[],
    readonly rowCount: number,
    readonly firstRow: number | undefined,
  ) {}

  get chunkCount(): number {
    return this.ends.length;
  }

  /** Chunk `index`'s JSON text (an array of rows), or undefined past the last. */
  text(index: number): string | undefined {
    const end = this.ends[index];
    if (end === undefined) return undefined;
    let text = this.texts[index];
    if (text === undefined) {
      text = this.decoder.decode(this.bytes.subarray(index === 0 ? 0 : this.ends[index - 1], end));
      this.texts[index] = text;
    }
    return text;
  }

  /** Chunk `index`'s text and row count (every chunk but the last has IMPORT_CHUNK_ROWS rows). */
  chunk(index: number): { text: string; rowCount: number } {
    return { text: this.text(index) ?? "[]", rowCount: Math.min(IMPORT_CHUNK_ROWS, this.rowCount - index * IMPORT_CHUNK_ROWS) };
  }

  /** The rows, parsed a chunk at a time (a dry run plans them here). */
  async rows(): Promise<unknown[]> {
    const rows: unknown[] = [];
    for (let index = 0; index < this.chunkCount; index++) {
      rows.push(...(JSON.parse(this.text(index) ?? "[]") as unknown[]));
      await new Promise((r) => setImmediate(r));
    }
    return rows;
  }
}

/**
 * What reading a body answers: the chunks, or a refusal's message and details (a 400, or `status`
 * when the reading itself failed: 503 when the reading thread ended, 500 for anything else).
 */
export type ReadBody =
  | { ok: true; bytes: Uint8Array; ends: number[]; rowCount: number; firstRow: number | undefined }
  | { ok: false; status?: number; message: string; details: Array<{ path: string; message: string }>; cause?: string };

/** A reading that threw (a bug, never the body's doing: readBody refuses what it cannot take); `cause` is logged, not sent. */
export function readFailed(err: unknown): ReadBody {
  return { ok: false, status: 500, message: "The import body could not be read (internal error)", details: [], cause: String(err) };
}

const envelope = z.object({
  products: z.array(z.unknown()),
  first_row: z.number().int().min(2).optional(),
});

/** Parses and checks a body (the worker's job; also run in-thread for small bodies). */
export function readBody(text: string): ReadBody {
  // Before parsing: the rows are written back out with JSON.stringify, which is recursive, and a
  // row thousands of levels deep would overflow the stack in the request's end handler.
  if (jsonTooDeep(text)) return { ok: false, message: JSON_TOO_DEEP_MESSAGE, details: [{ path: "body", message: JSON_TOO_DEEP_MESSAGE }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: "Body is not valid JSON", details: [] };
  }
  const shape = envelope.safeParse(parsed);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    const path = issue?.path.join(".") || "body";
    const message = path === "products" || path === "body" ? "products must be a list of rows" : `${path}: ${issue?.message}`;
    return { ok: false, message, details: [{ path, message }] };
  }
  const { products, first_row: firstRow } = shape.data;
  if (products.length > IMPORT_MAX_ROWS) {
    const message = `At most ${IMPORT_MAX_ROWS} rows per call`;
    return { ok: false, message, details: [{ path: "products", message }] };
  }
  for (let i = 0; i < products.length; i++) {
    const row = importRowInputSchema.safeParse(products[i]);
    if (!row.success) {
      const issue = row.error.issues[0];
      const path = ["products", i, ...(issue?.path ?? [])].join(".");
      const message = `Invalid row ${i + 1}: ${issue?.message ?? "not an object of CSV columns"}`;
      return { ok: false, message, details: [{ path, message }] };
    }
  }
  const texts: string[] = [];
  for (let i = 0; i < products.length; i += IMPORT_CHUNK_ROWS) texts.push(JSON.stringify(products.slice(i, i + IMPORT_CHUNK_ROWS)));
  let at = 0;
  const ends = texts.map((text) => (at += Buffer.byteLength(text)));
  // TextEncoder's bytes have memory of their own (never Buffer's shared pool): they may be moved.
  return { ok: true, bytes: new TextEncoder().encode(texts.join("")), ends, rowCount: products.length, firstRow };
}

/** The worker: built beside the server (scripts/build-server.mjs), or its source loaded through tsx's loader. */
function startWorker(): Worker {
  if (runningBuilt) return new Worker(fileURLToPath(new URL("./import-body-worker.mjs", import.meta.url)));
  const source = new URL("./import-body.worker.ts", import.meta.url).href;
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`, {
    eval: true,
  });
}

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, (answer: ReadBody) => void>();
/**
 * An idle worker ends after this long: its thread and heap hold about 23 MB of the server's RSS
 * (issue 42), kept only while imports come. The next large body starts one again (about 0.1 s).
 */
let idleMs = 30_000;
let idleTimer: NodeJS.Timeout | undefined;

function bodyWorker(): Worker {
  clearTimeout(idleTimer);
  if (worker) return worker;
  const w = startWorker();
  w.unref();
  w.on("message", ({ id, answer }: { id: number; answer: ReadBody }) => {
    waiting.get(id)?.(answer);
    settled(id);
  });
  const fail = (err: unknown) => {
    if (worker !== w) return; // an earlier worker, already replaced or ended while idle
    worker = undefined;
    // The bodies it was reading are lost, not wrong: their senders may try again (a new worker reads them).
    const answer: ReadBody = {
      ok: false,
      status: 503,
      message: "The body could not be read just now: please send it again",
      details: [],
      cause: String(err),
    };
    for (const resolve of waiting.values()) resolve(answer);
    waiting.clear();
  };
  w.on("error", fail);
  // An ended worker is never posted to again (its requests would wait forever): the next starts a new one.
  w.on("exit", (code) => fail(`the worker ended (exit code ${code})`));
  worker = w;
  return w;
}

/** A body's read is over (answered or aborted): with none left, the worker ends once idle for idleMs. */
function settled(id: number): void {
  waiting.delete(id);
  if (waiting.size > 0 || !worker) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (waiting.size > 0 || !worker) return;
    const idle = worker;
    worker = undefined; // its exit is not a failure
    void idle.terminate();
  }, idleMs);
  idleTimer.unref();
}

/** For tests: whether the worker runs now, and how long it waits idle before it ends. */
export const importBodyWorker = {
  running: (): boolean => worker !== undefined,
  setIdleMs(ms: number): void {
    idleMs = ms;
  },
};

/** How the body arrives: the request's stream, the route's limit and the announced length. */
export interface BodyStream {
  payload: Readable;
  limit: number;
  contentLength: number;
}

/**
 * Reads an import body as it arrives: a small one here, a large one in the worker thread, which
 * gets each piece of the request as it comes and joins them there. Joining a large body on the
 * event loop (Fastify's body reader) would hold it at the import's start: the first write to
 * fresh memory is slow on some machines. Answers undefined for an empty body; refuses one over
 * `limit` with 413 (also as soon as its headers announce it), one cut short with 400.
 */
export function readImportBody({ payload, limit, contentLength }: BodyStream): Promise<ReadBody | undefined> {
  if (contentLength > limit) return Promise.reject(new AppError(413, "Request body is too large"));
  return new Promise((resolve, reject) => {
    const small: Buffer[] = [];
    let received = 0;
    /** The worker's read of this body, once it outgrew WORKER_FROM_BYTES. */
    let session: WorkerRead | undefined;
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
      if (!session) return;
      session.worker.postMessage({ id: session.id, abort: true });
      settled(session.id);
    };
    const refuse = (err: Error) => {
      try {
        stop();
      } finally {
        reject(err);
      }
    };
    /**
     * This request's stream callbacks run outside any handler: what one throws would end the
     * process. Here it refuses this request instead (the error handler logs it and answers 500).
     */
    const guarded =
      <A extends unknown[]>(callback: (...args: A) => void) =>
      (...args: A) => {
        try {
          callback(...args);
        } catch (err) {
          refuse(err instanceof Error ? err : new Error(String(err)));
        }
      };
    const onData = guarded((piece: Buffer | string) => {
      const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
      received += chunk.length;
      if (received > limit) return refuse(new AppError(413, "Request body is too large"));
      if (session) {
        // A copy: the piece may share the socket's read buffer, which must not move.
        session.worker.postMessage({ id: session.id, chunk });
        return;
      }
      small.push(chunk);
      if (received >= WORKER_FROM_BYTES) {
        session = openSession();
        for (const c of small.splice(0)) session.worker.postMessage({ id: session.id, chunk: c });
      }
    });
    const onEnd = guarded(() => {
      if (!Number.isNaN(contentLength) && received !== contentLength)
        return refuse(new AppError(400, "Request body size did not match Content-Length"));
      const open = session;
      session = undefined; // ended: nothing to abort
      stop();
      if (open) {
        open.worker.postMessage({ id: open.id, end: true });
        return open.answer.then(resolve);
      }
      const text = Buffer.concat(small, received).toString("utf8");
      // An empty body (POST .../commit) is no body, as on every other route.
      resolve(text.trim() === "" ? undefined : readBody(text));
    });
    const onError = guarded((err: Error) => {
      refuse(new AppError(400, `The body could not be read: ${err.message}`));
    });
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
    payload.resume();
  });
}

/** The worker's read of one body: its pieces follow as { id, chunk }, then { id, end }; or { id, abort }. */
interface WorkerRead {
  worker: Worker;
  id: number;
  answer: Promise<ReadBody>;
}

function openSession(): WorkerRead {
  const id = nextId++;
  const worker = bodyWorker();
  const answer = new Promise<ReadBody>((resolve) => waiting.set(id, resolve));
  return { worker, id, answer };
}
