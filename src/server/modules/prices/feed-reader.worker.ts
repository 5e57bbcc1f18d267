/** The thread that parses a feed's file (feed-reader.ts readFeed): its pieces arrive as the upload or the fetch does. */
import { parentPort } from "node:worker_threads";
import type { FromReader, ToReader } from "./feed-reader.js";
import { noCardKeys, stagedBatch } from "./feed-rows.js";
import { parseFeed } from "./feeds/parse-feed.js";

const send = (message: FromReader) => parentPort?.postMessage(message);

/** The file's pieces as an async iterable: each is told as taken when the parser asks for the next. */
const pieces: Array<Uint8Array | string> = [];
let ended = false;
let wake: (() => void) | undefined;

async function* file(): AsyncIterable<Uint8Array | string> {
  for (;;) {
    const piece = pieces.shift();
    if (piece !== undefined) {
      send({ taken: true });
      yield piece;
      continue;
    }
    if (ended) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}

async function read(start: Extract<ToReader, { start: unknown }>["start"]): Promise<void> {
  const keys = noCardKeys();
  let seq = 0;
  let problems = 0;
  try {
    const onProblem = (row: number, message: string) => {
      if (problems++ < start.problemsKept) send({ problem: { row, message } });
    };
    for await (const records of parseFeed(start.format, file(), { onProblem, batchSize: start.batchSize })) {
      const batch = stagedBatch(records, start.currency, seq, keys);
      seq += batch.count;
      if (batch.count > 0) send({ batch });
    }
    send({ done: { keys } });
  } catch (err) {
    send({ error: err instanceof Error ? err.message : String(err) });
  }
}

parentPort?.on("message", (message: ToReader) => {
  if ("start" in message) void read(message.start);
  else {
    if ("chunk" in message) pieces.push(message.chunk);
    else ended = true;
    wake?.();
    wake = undefined;
  }
});
