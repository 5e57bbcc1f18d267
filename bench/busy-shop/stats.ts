/** Small number helpers shared by the busy-shop modules. */

/** Nearest-rank percentile of `values` (0-100); NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function max(values: number[]): number {
  let m = Number.NaN;
  for (const v of values) if (!(v <= m)) m = v;
  return m;
}

/** "12.3" style milliseconds, or "n/a". */
export function ms(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return "n/a";
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export function bytes(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return "n/a";
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${n.toFixed(0)} B`;
}

export const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));
