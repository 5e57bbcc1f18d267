import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { productPages } from "./prices.repo.js";

/** Pages whose bounds one statement finds. */
const PAGES_PER_LOOK = 20;

/**
 * The catalogue as ranges of ids (after, last] of `size` products each, in order: the matching and
 * the rules work a range per statement (a range, not `limit`: the planner then walks those products
 * only, whatever it thinks of the table). The bounds of many ranges are found at once.
 */
export async function* productRanges(database: Database, size: number): AsyncIterable<{ after: number; last: number }> {
  let after = 0;
  for (;;) {
    await yieldToPeople(database);
    const lasts = await productPages(database.bulk.db, after, size, PAGES_PER_LOOK);
    for (const last of lasts) {
      yield { after, last };
      after = last;
    }
    if (lasts.length < PAGES_PER_LOOK) return;
  }
}
