import type { FeedFormat } from "../../../contract/market.js";
import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { readFeed } from "./feed-reader.js";
import { noCardKeys } from "./feed-rows.js";
import type { FeedInput } from "./feeds/parse-feed.js";
import { makeProposals } from "./price-proposals.js";
import { analyze, dropOtherRunsCards, failRun, finishRun, matchAndRecord, stageCards, startRun } from "./prices.repo.js";
import { productRanges } from "./product-ranges.js";

/**
 * Products matched per statement, and a feed's records staged per statement. On the embedded
 * database a tap waits for the statement running (each first waits for the people queued for its
 * one connection, yieldToPeople, like imports), so there they are short; PostgreSQL's bulk work
 * has connections of its own.
 */
const MATCH_PAGE = { pglite: 500, postgres: 2_000 } as const;
const RECORDS_PER_BATCH = { pglite: 500, postgres: 2_000 } as const;
/** The first problems a run keeps to show (a broken feed has thousands of the same). */
const PROBLEMS_KEPT = 100;

export interface RunOutcome {
  id: number;
  status: "done" | "failed";
  records: number;
  matched: number;
  proposals: number;
  problems: string[];
  error: string | null;
}

export interface RunRequest {
  feed: { id: number; format: FeedFormat };
  trigger: "upload" | "schedule" | "request";
  startedBy: number | null;
  input: FeedInput;
  currency: string;
  timezone: string;
}

/**
 * One reading of a feed: its cards staged under the run as they stream in, then matched to the
 * products a page at a time and their prices recorded, then the rules run. A feed that fails while
 * it is read changes nothing: its staged cards go, and the prices, the proposals and the cards an
 * unmatched product is linked from stay the last good run's.
 */
export async function runFeed(database: Database, request: RunRequest): Promise<RunOutcome> {
  const db = database.bulk.db;
  const run = await startRun(db, {
    feedId: request.feed.id,
    trigger: request.trigger,
    timezone: request.timezone,
    startedBy: request.startedBy,
  });
  if (!run) throw new Error("The run was not recorded");
  const problems: string[] = [];
  let records = 0;
  const keys = noCardKeys();
  try {
    const onProblem = (row: number, message: string) => {
      if (problems.length < PROBLEMS_KEPT) problems.push(`Row ${row}: ${message}`);
    };
    const reading = readFeed(request.feed.format, request.input, {
      currency: request.currency,
      onProblem,
      problemsKept: PROBLEMS_KEPT,
      batchSize: RECORDS_PER_BATCH[database.kind],
      keys,
    });
    for await (const batch of reading) {
      await yieldToPeople(database);
      await stageCards(db, run.id, batch.json);
      records += batch.count;
    }
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await failRun(db, run.id, { error, records, problems });
    return { id: run.id, status: "failed", records, matched: 0, proposals: 0, problems, error };
  }

  // The planner's picture of the new cards: without it the matching's joins hash whole runs.
  await yieldToPeople(database);
  await analyze(db, "feed_cards");
  let matched = 0;
  for await (const range of productRanges(database, MATCH_PAGE[database.kind])) {
    await yieldToPeople(database);
    matched += await matchAndRecord(
      db,
      { id: run.id, feedId: request.feed.id, day: run.day, currency: request.currency, keys },
      range.after,
      range.last,
    );
  }
  await yieldToPeople(database);
  await analyze(db, "market_prices");
  await dropOtherRunsCards(db, request.feed.id, run.id);
  const proposals = await makeProposals(database, { runId: run.id, currency: request.currency });
  await finishRun(db, run.id, { records, matched, proposals, problems });
  return { id: run.id, status: "done", records, matched, proposals, problems, error: null };
}
