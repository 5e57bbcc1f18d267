import { describe, expect, it } from "vitest";
import type { ScanAnswer, StockTake } from "../../../contract/stock-takes";
import { type Counted, mergeCounted, newerStockTake, withAnswers } from "./counted";

const line = (product_id: number | null, barcode: string, counted: number) => ({
  product_id,
  barcode,
  name: product_id ? `P${product_id}` : null,
  counted,
});

function answer(product_id: number | null, barcode: string, counted: number): ScanAnswer {
  return {
    client_scan_id: `${barcode}-${counted}`,
    result: "found",
    product_id,
    product_name: product_id ? `P${product_id}` : null,
    count: counted - 1,
    counted,
    replayed: false,
    scan: {
      id: counted,
      session_id: 1,
      barcode,
      product_id,
      location_id: null,
      quantity: 1,
      device: null,
      user: "u",
      scanned_at: "2026-12-07T00:00:00.000Z",
      client_scan_id: `${barcode}-${counted}`,
    },
  };
}

describe("the running totals", () => {
  it("take a scan's answers: a new line, a higher count, never a lower one", () => {
    const old: Counted = { scans: 3, lines: [line(1, "A", 2), line(2, "B", 1)] };
    const next = withAnswers(old, [answer(2, "B", 2), answer(3, "C", 1), answer(1, "A", 1)], 6);
    expect(next).toEqual({ scans: 6, lines: [line(1, "A", 2), line(2, "B", 2), line(3, "C", 1)] });
  });

  it("keep what an answer showed when a fetch read before it arrives after it", () => {
    // The fetch was read at 38 scans; the answer of the 39th and 40th came first.
    const patched = withAnswers({ scans: 38, lines: [line(1, "A", 1)] }, [answer(2, "B", 1), answer(1, "A", 2)], 40);
    const stale: Counted = { scans: 38, lines: [line(1, "A", 1), line(4, "D", 3)] };
    expect(mergeCounted(patched, stale)).toEqual({ scans: 40, lines: [line(1, "A", 2), line(4, "D", 3), line(2, "B", 1)] });
  });

  it("take a fetch read at the same count or later whole: a dropped barcode leaves", () => {
    const old: Counted = { scans: 5, lines: [line(1, "A", 2), line(null, "UNKNOWN", 3)] };
    const fetched: Counted = { scans: 5, lines: [line(1, "A", 2)] };
    expect(mergeCounted(old, fetched)).toBe(fetched);
    expect(mergeCounted(undefined, fetched)).toBe(fetched);
  });

  it("tell unknown barcodes apart by barcode and products by id", () => {
    const old: Counted = { scans: 2, lines: [line(null, "X", 1), line(7, "0001", 1)] };
    const next = withAnswers(old, [answer(null, "Y", 1), answer(7, "1", 2)], 4);
    expect(next.lines).toEqual([line(null, "X", 1), line(7, "0001", 2), line(null, "Y", 1)]);
  });
});

describe("the session's scan count", () => {
  const session = (scans: number, status: StockTake["status"] = "counting"): StockTake => ({
    id: 1,
    number: 1,
    status,
    scope: { location_ids: [1] },
    started_by: "u",
    started_at: "2026-12-07T00:00:00.000Z",
    finished_at: null,
    approved_by: null,
    scans,
  });

  it("never goes back to a session read before", () => {
    expect(newerStockTake(session(40), session(2)).scans).toBe(40);
    expect(newerStockTake(session(40), session(41)).scans).toBe(41);
    expect(newerStockTake(session(40), session(40, "review")).status).toBe("review");
  });
});
