/**
 * Barcodes as GTINs: the one normalisation behind lookup, create, edit and import.
 *
 * A numeric code is a GTIN when its GS1 check digit is valid; GTIN-8, -12 (UPC-A), -13 (EAN-13)
 * and -14 are one number written with more or fewer leading zeros, so they are compared as
 * GTIN-14 (padded with zeros on the left):
 * - UPC-A `820650853548` and EAN-13 `0820650853548` (how decoders report UPC-A) are one product;
 * - a code that lost its leading zeros (a spreadsheet turns `074427158066` into `74427158066`)
 *   is recognised when what is left has at least GTIN_MIN_DIGITS digits and, padded again, a
 *   valid check digit;
 * - an 8-digit UPC-E (number system 0 or 1, its check digit that of its UPC-A expansion) is
 *   its UPC-A; a 6- or 7-digit code is read as a UPC-E that lost its leading zero first. An
 *   8-digit code valid as UPC-E is read as UPC-E (an EAN-8 that happens to be valid both ways
 *   is compared as the UPC-E: UPC-E number systems 0 and 1 are US codes, EAN-8 prefixes 0 and 1
 *   are restricted-circulation or rare).
 * Anything else (Code 128 labels, `SC-...`, numbers without a valid check digit, codes of up to
 * 5 or more than 14 digits) is compared exactly, as typed.
 *
 * The database keeps this key in products.barcode_key (its twin in SQL, gtin_key(), fills it;
 * a test checks the two agree). The stored barcode stays as the user typed or scanned it.
 */

/** Numeric codes shorter than this are never read as GTINs (too easy to match by accident). */
export const GTIN_MIN_DIGITS = 6;
export const GTIN_LENGTH = 14;

const NUMERIC = /^[0-9]+$/;

/** The GS1 check digit of `body` (all digits but the check digit): weights 3, 1, 3, ... from the right. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a string of digits ends in its valid GS1 check digit. */
export function hasValidCheckDigit(code: string): boolean {
  return code.length >= 2 && NUMERIC.test(code) && gs1CheckDigit(code.slice(0, -1)) === code.charCodeAt(code.length - 1) - 48;
}

/**
 * The UPC-A (12 digits) an 8-digit UPC-E stands for, or null when it is not one (not 8 digits,
 * number system other than 0 or 1, or a check digit that is not the UPC-A's).
 */
export function expandUpcE(code: string): string | null {
  if (code.length !== 8 || !NUMERIC.test(code)) return null;
  const system = code[0];
  if (system !== "0" && system !== "1") return null;
  const d = code.slice(1, 7);
  const check = code[7];
  const last = d[5];
  let body: string;
  if (last === "0" || last === "1" || last === "2") body = `${d.slice(0, 2)}${last}0000${d.slice(2, 5)}`;
  else if (last === "3") body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === "4") body = `${d.slice(0, 4)}00000${d[4]}`;
  else body = `${d.slice(0, 5)}0000${last}`;
  const upcA = `${system}${body}${check}`;
  return hasValidCheckDigit(upcA) ? upcA : null;
}

/**
 * The key a barcode is compared by: the GTIN-14 of a GTIN, the code itself otherwise. Takes the
 * barcode as stored (already trimmed); codes that are the same product have the same key.
 */
export function gtinKey(barcode: string): string {
  const n = barcode.length;
  if (n < GTIN_MIN_DIGITS || n > GTIN_LENGTH || !NUMERIC.test(barcode)) return barcode;
  if (n <= 8) {
    const upcA = expandUpcE(barcode.padStart(8, "0"));
    if (upcA) return upcA.padStart(GTIN_LENGTH, "0");
  }
  const gtin = barcode.padStart(GTIN_LENGTH, "0");
  return hasValidCheckDigit(gtin) ? gtin : barcode;
}

/** Whether two barcodes name the same product. */
export function sameBarcode(a: string, b: string): boolean {
  return gtinKey(a) === gtinKey(b);
}
