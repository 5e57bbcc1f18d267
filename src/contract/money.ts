/** Money is whole cents everywhere but on screen and in CSV files ("12.50"). No zod: the first screen uses it. */
import { MONEY_MAX_CENTS } from "./rules.js";

const AMOUNT = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/**
 * An amount as typed or read from CSV ("12.50", "12.5", "12", ".50" is refused) as whole cents;
 * undefined when it is not 0 or a positive amount with at most two decimals. A leading currency
 * symbol and thousands separators ("$1,234.50") are accepted, as spreadsheets write them.
 */
export function parseAmount(text: string): number | undefined {
  const plain = text
    .trim()
    .replace(/^[$€£¥]\s*/u, "")
    .replace(/,(?=\d{3}(?:\D|$))/g, "");
  const m = AMOUNT.exec(plain);
  if (!m) return undefined;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return cents <= MONEY_MAX_CENTS ? cents : undefined;
}

/** Cents as a plain amount for CSV and inputs: 1250 -> "12.50", a loss with its sign: -150 -> "-1.50", -5 -> "-0.05". */
export function centsToAmount(cents: number): string {
  const whole = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

const formats = new Map<string, Intl.NumberFormat>();

/** Cents in the shop's currency for people: 1250, "USD" -> "$12.50". */
export function formatMoney(cents: number, currency: string, locale?: string): string {
  const key = `${currency}|${locale ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency });
    formats.set(key, format);
  }
  return format.format(cents / 100);
}
