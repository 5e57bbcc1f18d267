// One formatter: Number.prototype.toLocaleString sets up a new one on every call (a fraction of a
// millisecond in Chromium), and the inventory's counts are rendered on every keystroke.
const COUNT = new Intl.NumberFormat("en-US");

/** A count with thousands separators ("93,998"), as the spec's texts show them. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
