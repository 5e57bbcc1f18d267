import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ShowChange, tallyShow } from "./shows.tally.js";

let clock = Date.parse("2026-05-03T18:00:00.000Z");
const change = (productId: number, delta: number, notes = "Streamer adjustment"): ShowChange => {
  clock += 1000;
  return { productId, productName: `Card ${productId}`, barcode: `code-${productId}`, change: delta, notes, at: new Date(clock) };
};

describe("a show's tally", () => {
  it("counts sold and added per product, newest first, and offers to undo the latest tap", () => {
    const { lines, totals } = tallyShow([change(1, -1), change(2, -1), change(1, -1), change(2, 1), change(3, 1)]);
    expect(lines.map((l) => [l.product_id, l.sold, l.added, l.net, l.undo_change])).toEqual([
      [3, 0, 1, 1, -1],
      [2, 1, 1, 0, -1],
      [1, 2, 0, -2, 1],
    ]);
    expect(totals).toEqual({ sold: 3, added: 2, net: -1, changes: 5, revenue: null });
  });

  it("an undo cancels the tap it reverses: it counts in neither column, and the next undo reaches the tap before", () => {
    const { lines, totals } = tallyShow([change(1, -1), change(1, 1), change(1, -1), change(1, -1, "Undo")]);
    // sold, added, sold, undo of the add: the sales stand.
    expect(lines[0]).toMatchObject({ sold: 2, added: 0, net: -2, undo_change: 1 });
    expect(totals).toMatchObject({ sold: 2, added: 0, net: -2, changes: 4 });
    const undone = tallyShow([change(1, -1), change(1, 1, "Undo")]);
    expect(undone.lines[0]).toMatchObject({ sold: 0, added: 0, net: 0, undo_change: null });
  });

  it("revenue: the price each sale was made at, for the units sold and not undone", () => {
    const priced = (productId: number, delta: number, unitPrice: number | null, notes?: string) => ({
      ...change(productId, delta, notes),
      unitPrice,
    });
    const { lines, totals } = tallyShow([
      priced(1, -1, 500),
      priced(1, -2, 600),
      priced(1, 1, 600, "Undo"),
      priced(1, 1, 600),
      priced(2, -1, null),
    ]);
    // Product 1: 500 + one of the two units at 600 (the other undone); the add takes nothing.
    expect(lines.map((l) => [l.product_id, l.sold, l.revenue])).toEqual([
      [2, 1, null],
      [1, 2, 1100],
    ]);
    expect(totals.revenue).toBe(1100);
  });

  it("an undo with nothing to cancel counts as a change of its own", () => {
    const { lines } = tallyShow([change(1, 1, "Undo")]);
    expect(lines[0]).toMatchObject({ sold: 0, added: 1, net: 1, undo_change: -1 });
  });

  it("always: net = added - sold per line and overall, and nothing is negative", () => {
    const tap = fc.record({
      product: fc.integer({ min: 1, max: 4 }),
      delta: fc.constantFrom(-1, 1, -2, 3),
      undo: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(tap, { maxLength: 60 }), (taps) => {
        const { lines, totals } = tallyShow(taps.map((t) => change(t.product, t.delta, t.undo ? "Undo" : "Streamer adjustment")));
        for (const l of lines) {
          expect(l.net).toBe(l.added - l.sold);
          expect(l.sold).toBeGreaterThanOrEqual(0);
          expect(l.added).toBeGreaterThanOrEqual(0);
        }
        expect(totals.net).toBe(taps.reduce((s, t) => s + t.delta, 0));
        expect(totals.net).toBe(totals.added - totals.sold);
      }),
    );
  });
});
