import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FeedFormat } from "../../../contract/market.js";
import { runningBuilt } from "../../paths.js";
import { type CardKeys, stagedBatch } from "./feed-rows.js";
import { type ByteSource, type FeedInput, type OnProblem, parseFeed } from "./feeds/parse-feed.js";

/** A batch of a feed's printings ready to stage: JSON text of StagedRow (feed-rows.ts) and how many. */
export interface FeedBatch {
  json: string;
  count: number;
}

export interface ReadOptions {
  /** The shop's currency: prices in others are left out. */
  currency: string;
  /** Told of each record that cannot be read, the first `problemsKept` of them. */
  onProblem: OnProblem;
  problemsKept: number;
  /** Records per batch (before those in other currencies are left out). */
  batchSize: number;
  /** Filled in with what the cards can be matched by, once the file is read. */
  keys: CardKeys;
}

/** Pieces of the file sent to the reading thread that its parser has not taken yet: past this, the file waits. */
const CHUNKS_AHEAD = 8;
/** Batches read and not staged yet: past this, the file waits (the database sets the pace, never the memory). */
const BATCHES_AHEAD = 4;
/** The reading thread's heap: one card at a time is held, a file of any size streams through it. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 };

/**
 * A feed's printings in batches, as its file streams in. A file (Scryfall, pokemontcg.io, CSV) is
 * parsed in a thread of its own: the JSON parser and the rows' text are most of a large feed's
 * work, and on the event loop they would hold every request behind them. The file's pieces go to
 * that thread a few at a time as it takes them, so a 300 MB file is never held. A TCGCSV pair (a
 * group's products and prices, small) is read here. Rejects with the parser's message when the
 * file is not of the format.
 */
export function readFeed(format: FeedFormat, input: FeedInput, options: ReadOptions): AsyncIterable<FeedBatch> {
  // A TCGCSV pair, or an input that is not one file (parseFeed refuses it as it always has), is read here.
  if (format === "tcgcsv" || !isFile(input)) return readHere(format, input, options);
  return readInWorker(format, input, options);
}

const isFile = (input: FeedInput): input is ByteSource => Symbol.asyncIterator in (input as object);

async function* readHere(format: FeedFormat, input: FeedInput, options: ReadOptions): AsyncIterable<FeedBatch> {
  let seq = 0;
  let problems = 0;
  const onProblem: OnProblem = (row, message) => {
    if (problems++ < options.problemsKept) options.onProblem(row, message);
  };
  for await (const records of parseFeed(format, input, { onProblem, batchSize: options.batchSize })) {
    const batch = stagedBatch(records, options.currency, seq, options.keys);
    seq += batch.count;
    if (batch.count > 0) yield batch;
  }
}

/** What the reading thread sends: a piece taken, a batch, a problem, the end (with the keys), or why it failed. */
export type FromReader =
  | { taken: true }
  | { batch: FeedBatch }
  | { problem: { row: number; message: string } }
  | { done: { keys: CardKeys } }
  | { error: string };

/** What it is sent: the feed to read, then its pieces, then the end. */
export type ToReader =
  | { start: { format: Exclude<FeedFormat, "tcgcsv">; currency: string; problemsKept: number; batchSize: number } }
  | { chunk: Uint8Array | string }
  | { end: true };

/** The thread: built beside the server (scripts/build-server.mjs), or its source loaded through tsx's loader. */
function startWorker(): Worker {
  if (runningBuilt) {
    return new Worker(fileURLToPath(new URL("./price-feed-worker.mjs", import.meta.url)), { resourceLimits: WORKER_LIMITS });
  }
  const source = new URL("./feed-reader.worker.ts", import.meta.url).href;
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`, {
    eval: true,
    resourceLimits: WORKER_LIMITS,
  });
}

async function* readInWorker(format: Exclude<FeedFormat, "tcgcsv">, input: ByteSource, options: ReadOptions): AsyncIterable<FeedBatch> {
  const worker = startWorker();
  const batches: FeedBatch[] = [];
  let ahead = 0;
  let done = false;
  let stopped = false;
  let failure: Error | undefined;
  // Whoever waits (the file's pump, the batches' reader) is woken by any news and looks again.
  let waiting: Array<() => void> = [];
  const news = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const change = () => new Promise<void>((resolve) => waiting.push(resolve));
  const fail = (err: Error) => {
    failure ??= err;
    news();
  };

  worker.on("message", (message: FromReader) => {
    if ("taken" in message) ahead--;
    else if ("batch" in message) batches.push(message.batch);
    else if ("problem" in message) options.onProblem(message.problem.row, message.problem.message);
    else if ("done" in message) {
      Object.assign(options.keys, message.done.keys);
      done = true;
    } else if ("error" in message) failure ??= new Error(message.error);
    news();
  });
  worker.on("error", (err) => fail(err));
  worker.on("exit", (code) => {
    if (!done) fail(new Error(`The feed could not be read: its reading thread ended (exit code ${code})`));
  });
  const post = (message: ToReader, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  post({ start: { format, currency: options.currency, problemsKept: options.problemsKept, batchSize: options.batchSize } });

  const pump = (async () => {
    for await (const chunk of input) {
      while (!stopped && !failure && (ahead >= CHUNKS_AHEAD || batches.length >= BATCHES_AHEAD)) await change();
      if (stopped || failure) return;
      if (typeof chunk === "string") post({ chunk });
      else {
        // A copy of the piece's bytes alone (a Buffer may be a view of a larger shared one), moved to the thread.
        const bytes = new Uint8Array(chunk);
        post({ chunk: bytes }, [bytes.buffer as ArrayBuffer]);
      }
      ahead++;
    }
    if (!stopped) post({ end: true });
  })().catch((err) => fail(err instanceof Error ? err : new Error(String(err))));

  try {
    for (;;) {
      if (failure) throw failure;
      const batch = batches.shift();
      if (batch) {
        news();
        yield batch;
        continue;
      }
      if (done) break;
      await change();
    }
    await pump;
    if (failure) throw failure;
  } finally {
    stopped = true;
    news();
    await worker.terminate();
  }
}
