import { describe, expect, it } from "vitest";
import { fileDatabase } from "../test/file-database.js";
import { peopleSeenWithin, yieldToPeople } from "./people-first.js";

const file = fileDatabase();

/** A person's statement holding a connection for `seconds`; `done()` says whether it has ended. */
async function person(seconds: number) {
  let ended = false;
  const query = file.database.pool.query(`select pg_sleep(${seconds})`).then(() => {
    ended = true;
  });
  await new Promise((r) => setTimeout(r, 5)); // sent, and running
  return { done: () => ended, query };
}

describe("bulk work yields to people", () => {
  it("goes at once while nobody uses the database, and notes nobody", async () => {
    await file.database.pool.query("select 1"); // the connection is open and free
    await yieldToPeople(file.database);
    expect(peopleSeenWithin(file.database, 60_000)).toBe(false);
  });

  it("on the embedded database, waits until a person's statement has ended; on PostgreSQL (a pool of its own), never", async () => {
    const p = await person(0.02);
    await yieldToPeople(file.database);
    const endedFirst = p.done();
    await p.query;
    expect(endedFirst).toBe(file.database.kind === "pglite");
    expect(peopleSeenWithin(file.database, 60_000)).toBe(file.database.kind === "pglite");
  });

  it("on the embedded database, waits at most about 50 ms, so bulk work still moves while someone holds the connection", async () => {
    // 2 s: far longer than the yield may wait, also on a slow machine whose timers run late.
    const p = await person(2);
    const started = performance.now();
    await yieldToPeople(file.database);
    const waited = performance.now() - started;
    expect(p.done()).toBe(false);
    await p.query;
    expect(waited).toBeLessThan(1_000);
  });
});
