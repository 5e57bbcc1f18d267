/**
 * Spreadsheet-safe cells, for every CSV the app writes (the browser's exports, the server's show
 * and stock take reports): text starting with =, +, - or @ would run as a formula in Excel or
 * LibreOffice, so it gets a leading single quote. Text that already starts with quotes before
 * such a character gets one more, so `unsafeCell` undoes exactly what this did.
 */
const FORMULA = /^'*[=+\-@]/;
export function safeCell(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/** The inverse of `safeCell`, applied to every imported cell. */
export function unsafeCell(value: string): string {
  return value.startsWith("'") && FORMULA.test(value) ? value.slice(1) : value;
}

/** A text cell made safe and quoted where CSV needs it (a comma, a quote or a line break); blank for null. */
export function csvTextCell(value: string | null): string {
  if (value === null) return "";
  const safe = safeCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
