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
  /** The product's price in cents at the change (quantity_audit.unit_price, migration 0011); null or absent when unknown. */
  unitPrice?: number | null;
}

/** A tap not undone (yet): its signed amount left and the price it was made at. */
interface Tap {
  amount: number;
  price: number | null;
}

interface Open {
  line: ShowLine;
  /** Position of the product's latest change: lines are ordered by it, newest first. */
  latest: number;
  /** The taps not undone yet, oldest first. */
  taps: Tap[];
}

/**
 * The tally of a show: per product, units sold and added and the net change, newest first.
 * An undo (a change with the reason "Undo") cancels the latest taps it is the opposite of, so a
 * tap undone from the tally counts in neither column (the net still sums every change). A line
 * offers to undo its latest tap that is not undone yet. Revenue is the price of each unit sold and
 * not undone, as the tap recorded it (null when none of them carries a price).
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
          revenue: null,
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
        const tap = open.taps[i] as Tap;
        if (Math.sign(tap.amount) !== -Math.sign(left)) continue;
        const used = Math.min(Math.abs(tap.amount), Math.abs(left)) * Math.sign(tap.amount);
        tap.amount -= used;
        left += used;
        if (tap.amount === 0) open.taps.splice(i, 1);
      }
    }
    // A change that is not an undo, or the part of an undo with nothing left to cancel, is a tap.
    if (left !== 0) open.taps.push({ amount: left, price: c.unitPrice ?? null });
  }
  const open = [...byProduct.values()].sort((a, b) => b.latest - a.latest);
  const lines = open.map(({ line, taps }) => {
    const last = taps.at(-1);
    const pricedSales = taps.filter((t) => t.amount < 0 && t.price !== null);
    return {
      ...line,
      sold: taps.reduce((sum, t) => sum + Math.max(-t.amount, 0), 0),
      added: taps.reduce((sum, t) => sum + Math.max(t.amount, 0), 0),
      undo_change: last === undefined ? null : -Math.sign(last.amount),
      revenue: pricedSales.length === 0 ? null : pricedSales.reduce((sum, t) => sum - t.amount * (t.price as number), 0),
    };
  });
  const totals = lines.reduce(
    (t, l) => ({
      sold: t.sold + l.sold,
      added: t.added + l.added,
      net: t.net + l.net,
      changes: t.changes,
      revenue: l.revenue === null ? t.revenue : (t.revenue ?? 0) + l.revenue,
    }),
    { sold: 0, added: 0, net: 0, changes: changes.length, revenue: null as number | null },
  );
  return { lines, totals };
}
