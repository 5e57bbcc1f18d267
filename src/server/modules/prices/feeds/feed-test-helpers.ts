import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { FeedRecord, ParseOptions } from "./feed-record.js";

/** Test helpers of the feed parsers' tests (no test imports anything else from here). */

/** A fixture file (fixtures/README.md says where each comes from), streamed as the server reads an upload. */
export const fixture = (name: string): Readable => createReadStream(new URL(`./fixtures/${name}`, import.meta.url));

/** Everything a parser yields and reports, read to the end. */
export async function readAll(parse: (options: ParseOptions) => AsyncIterable<FeedRecord[]>, batchSize?: number) {
  const problems: string[] = [];
  const batches: FeedRecord[][] = [];
  for await (const batch of parse({ batchSize, onProblem: (row, message) => problems.push(`${row}: ${message}`) })) {
    batches.push(batch);
  }
  return { records: batches.flat(), batches, problems };
}

/** Text as a stream of byte chunks of `size` bytes (a chunk may end inside a character, as network reads do). */
export async function* inChunks(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
