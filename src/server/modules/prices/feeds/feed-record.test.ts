import { describe, expect, it } from "vitest";
import { inBatches, toCents } from "./feed-record.js";

describe("toCents", () => {
  it("reads dollars from the digits the source wrote, rounding half a cent up", () => {
    expect([0.29, "0.29", 1.005, "1.005", 1.0049, 0.995, "12", 12, 359.27, 0.1 + 0.2, " 4.5 ", "0.015"].map(toCents)).toEqual([
      29, 29, 101, 101, 100, 100, 1200, 1200, 35927, 30, 450, 2,
    ]);
  });

  it("has no price for null, absent, empty, negative, zero, not a number, or more than we store", () => {
    const none = [
      null,
      undefined,
      "",
      "  ",
      -1,
      "-0.50",
      0,
      "0.00",
      0.004,
      "abc",
      "1e3",
      "$1.00",
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e21,
      1e-7,
      10_000_000.01,
      {},
      true,
    ];
    expect(none.map(toCents)).toEqual(none.map(() => undefined));
    expect(toCents(10_000_000)).toBe(1_000_000_000);
  });
});

describe("inBatches", () => {
  async function* records(n: number) {
    for (let i = 0; i < n; i++) yield { finish: "normal" as const, currency: "USD", prices: { market: i + 1 } };
  }
  const sizes = async (n: number, size?: number) => {
    const out: number[] = [];
    for await (const batch of inBatches(records(n), size)) out.push(batch.length);
    return out;
  };

  it("yields batches of at most the size, 1,000 by default, and nothing for no records", async () => {
    expect(await sizes(2_500)).toEqual([1_000, 1_000, 500]);
    expect(await sizes(6, 3)).toEqual([3, 3]);
    expect(await sizes(0)).toEqual([]);
    await expect(sizes(1, 0)).rejects.toThrow(/at least one/);
  });
});
