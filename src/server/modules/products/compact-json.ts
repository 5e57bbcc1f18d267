import { productSchema } from "../../../contract/products.js";

// The catalogue mirror keeps every product's JSON text in memory: at 100,000 products about 45 MB,
// of which more than half is the same 21 keys again and again. It keeps the values alone, joined
// by a character JSON text never holds as itself (a control character, which JSON strings escape),
// and writes the keys back when it sends a product.

const SEP = "\u0001";
const KEYS = Object.keys(productSchema.shape);
/** `{"id":`, `,"barcode":`, ...: what comes before each value in a product's JSON text. */
const BEFORE = KEYS.map((key, i) => `${i === 0 ? "{" : ","}${JSON.stringify(key)}:`);
const LAST = KEYS.length - 1;

/**
 * A product's JSON text (product_json_text(), productJsonText(): no blanks, the schema's keys in its
 * order) as its values alone; null for any other text, which is then kept whole.
 */
export function compactProductJson(json: string): string | null {
  if (json.includes(SEP)) return null;
  const values: string[] = [];
  let at = 0;
  for (let k = 0; k <= LAST; k++) {
    const before = BEFORE[k] as string;
    if (!json.startsWith(before, at)) return null;
    at += before.length;
    const end = endOfValue(json, at);
    if (end < 0) return null;
    values.push(json.slice(at, end));
    at = end;
  }
  // Joined into one flat string: slices and concatenations would each keep the whole text alive.
  return at === json.length - 1 && json.endsWith("}") ? values.join(SEP) : null;
}

/** The JSON text of what compactProductJson kept: the same text it was given. */
export function expandProductJson(values: string): string {
  const parts: string[] = [];
  let start = 0;
  for (let k = 0; k < LAST; k++) {
    const end = values.indexOf(SEP, start);
    parts.push(BEFORE[k] as string, values.slice(start, end));
    start = end + 1;
  }
  parts.push(BEFORE[LAST] as string, values.slice(start), "}");
  return parts.join("");
}

/** Where the JSON value starting at `at` ends (the index after it), or -1 if it does not. */
function endOfValue(s: string, at: number): number {
  const c = s.charCodeAt(at);
  if (c === 34 /* " */) return endOfString(s, at);
  if (c === 91 /* [ */ || c === 123 /* { */) {
    let depth = 0;
    for (let i = at; i < s.length; i++) {
      const d = s.charCodeAt(i);
      if (d === 34) {
        i = endOfString(s, i) - 1;
        if (i < 0) return -1;
      } else if (d === 91 || d === 123) depth++;
      else if (d === 93 || d === 125) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next comma or the closing brace.
  for (let i = at; i < s.length; i++) {
    const d = s.charCodeAt(i);
    if (d === 44 /* , */ || d === 125 /* } */) return i === at ? -1 : i;
  }
  return -1;
}

/** The index after the string starting at `at` (its closing quote is one no backslash escapes), or -1. */
function endOfString(s: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = s.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (s.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
