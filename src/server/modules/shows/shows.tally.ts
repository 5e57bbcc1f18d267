import { QUANTITY_REASONS } from "../../../contract/rules.js";
import type { ShowLine, ShowTotals } from "../../../contract/shows.js";

/** One quantity change tagged with a show, in the order they were made. */
export interface ShowChange {
  productId: number | null;
  productName: string;
  barcode: string;
  change: number;
  notes: string | null;
  at: Date;
}

interface Open {
  line: ShowLine;
  /** Position of the product's latest change: lines are ordered by it, newest first. */
  latest: number;
  /** The taps not undone yet, oldest first (signed amounts). */
  taps: number[];
}

/**
 * The tally of a show: per product, units sold and added and the net change, newest first.
 * An undo (a change with the reason "Undo") cancels the latest taps it is the opposite of, so a
 * tap undone from the tally counts in neither column (the net still sums every change). A line
 * offers to undo its latest tap that is not undone yet.
 */
export function tallyShow(changes: readonly ShowChange[]): { lines: ShowLine[]; totals: ShowTotals } {
  const byProduct = new Map<string, Open>();
  for (const [index, c] of changes.entries()) {
    const id = c.productId === null ? `barcode:${c.barcode}` : `id:${c.productId}`;
    let open = byProduct.get(id);
    if (!open) {
      open = {
        line: {
          product_id: c.productId,
          product_name: c.productName,
          barcode: c.barcode,
          sold: 0,
          added: 0,
          net: 0,
          last_change_at: c.at.toISOString(),
          undo_change: null,
        },
        latest: index,
        taps: [],
      };
      byProduct.set(id, open);
    }
    open.line.product_name = c.productName;
    open.line.barcode = c.barcode;
    open.line.net += c.change;
    open.line.last_change_at = c.at.toISOString();
    open.latest = index;
    let left = c.change;
    if (c.notes === QUANTITY_REASONS.undo) {
      // Cancel the latest opposite taps, as far as this undo reaches.
      for (let i = open.taps.length - 1; i >= 0 && left !== 0; i--) {
        const tap = open.taps[i] as number;
        if (Math.sign(tap) !== -Math.sign(left)) continue;
        const used = Math.min(Math.abs(tap), Math.abs(left)) * Math.sign(tap);
        open.taps[i] = tap - used;
        left += used;
        if (open.taps[i] === 0) open.taps.splice(i, 1);
      }
    }
    // A change that is not an undo, or the part of an undo with nothing left to cancel, is a tap.
    if (left !== 0) open.taps.push(left);
  }
  const open = [...byProduct.values()].sort((a, b) => b.latest - a.latest);
  const lines = open.map(({ line, taps }) => {
    const last = taps.at(-1);
    return {
      ...line,
      sold: taps.reduce((sum, t) => sum + Math.max(-t, 0), 0),
      added: taps.reduce((sum, t) => sum + Math.max(t, 0), 0),
      undo_change: last === undefined ? null : -Math.sign(last),
    };
  });
  const totals = lines.reduce((t, l) => ({ sold: t.sold + l.sold, added: t.added + l.added, net: t.net + l.net, changes: t.changes }), {
    sold: 0,
    added: 0,
    net: 0,
    changes: changes.length,
  });
  return { lines, totals };
}
