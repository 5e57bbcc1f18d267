/** Calendar arithmetic on days written YYYY-MM-DD (no time zone: they are days of TIMEZONE already). */

const DAY_MS = 86_400_000;

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

export function nextMonth(month: string): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * How a range [from, to] splits between the monthly roll-up (whole months that end by `through`)
 * and days read from the audit: `months` is [first, last] month or null; `days` the ranges left.
 */
export function splitByMonths(
  from: string,
  to: string,
  through: string | null,
): { months: [string, string] | null; days: Array<[string, string]> } {
  if (through === null) return { months: null, days: [[from, to]] };
  const end = to < through ? to : through;
  const first = monthOf(from) === from ? from : nextMonth(monthOf(from));
  let last: string | null = null;
  for (let m = first; addDays(nextMonth(m), -1) <= end; m = nextMonth(m)) last = m;
  if (last === null) return { months: null, days: [[from, to]] };
  const days: Array<[string, string]> = [];
  if (from < first) days.push([from, addDays(first, -1)]);
  const after = nextMonth(last);
  if (after <= to) days.push([after, to]);
  return { months: [first, last], days };
}
