import { describe, expect, it } from "vitest";
import { nextBatchSize } from "./import-runner.js";

const options = { maxBatchRows: 1_000, batchTargetMs: 50 };

describe("the next import batch's size", () => {
  it("settles where a batch takes about 80% of the aim, from above and from below", () => {
    // A database that writes a row in 0.1 ms: 400 rows make 40 ms, 80% of 50.
    const took = (rows: number) => rows / 10;
    for (const start of [50, 1_000]) {
      let size = start;
      for (let i = 0; i < 12; i++) size = nextBatchSize(size, took(size), options);
      expect(size).toBe(400);
    }
  });

  it("grows at most 1.5 times a step, never past the most rows a batch may have", () => {
    expect(nextBatchSize(100, 1, options)).toBe(150);
    expect(nextBatchSize(900, 1, options)).toBe(1_000);
  });

  it("shrinks after a slow batch at once, never under 50 rows", () => {
    expect(nextBatchSize(1_000, 200, options)).toBe(200);
    expect(nextBatchSize(100, 5_000, options)).toBe(50);
  });
});
