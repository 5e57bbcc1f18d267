import type { ScanAnswer, StockTake } from "../../../contract/stock-takes";

// The counting screen's running totals come from three places that can arrive in any order: a
// fetch of the review, this device's scan answers and every device's live scans. The session's
// scan count only grows (dropped scans are kept), so it orders them: data read at a lower count
// is older, and never takes back what newer data showed.

/** What a session has counted of one product or unknown barcode, on every device. */
export interface CountedLine {
  product_id: number | null;
  barcode: string;
  name: string | null;
  counted: number;
}

/** The running totals and the session's scan count they were read at (or patched up to). */
export interface Counted {
  scans: number;
  lines: CountedLine[];
}

const sameLine = (a: Pick<CountedLine, "product_id" | "barcode">, b: Pick<CountedLine, "product_id" | "barcode">) =>
  a.product_id === null ? b.product_id === null && b.barcode === a.barcode : b.product_id === a.product_id;

/** `lines` with each of `more` added, or raised to its count where it counts more. */
function withLarger(lines: CountedLine[], more: CountedLine[]): CountedLine[] {
  const next = [...lines];
  for (const line of more) {
    const i = next.findIndex((l) => sameLine(line, l));
    const had = next[i];
    if (!had) next.push(line);
    else if (had.counted < line.counted) next[i] = { ...line, barcode: had.barcode };
  }
  return next;
}

/**
 * `next` (a fetch) over `old`: taken whole when read at the same scan count or later (a dropped
 * barcode leaves it); read earlier, it can only add lines and raise counts.
 */
export function mergeCounted(old: Counted | undefined, next: Counted): Counted {
  if (!old || next.scans >= old.scans) return next;
  return { scans: old.scans, lines: withLarger(next.lines, old.lines) };
}

/** The totals with scans' answers (each carries what the session counts of its product now), read at `scans`. */
export function withAnswers(old: Counted, answers: ScanAnswer[], scans: number): Counted {
  const lines = answers.map((a) => ({ product_id: a.product_id, barcode: a.scan.barcode, name: a.product_name, counted: a.counted }));
  return { scans: Math.max(old.scans, scans), lines: withLarger(old.lines, lines) };
}

/** The session as `next` says, unless it was read before `old` (fewer scans): then `old` stays. */
export function newerStockTake(old: StockTake | undefined, next: StockTake): StockTake {
  return old && next.scans < old.scans ? old : next;
}
