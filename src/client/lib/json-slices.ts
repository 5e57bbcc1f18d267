import { yieldToBrowser } from "./slices";

/** About this many characters of JSON are parsed between two yields (a few milliseconds). */
const SLICE_CHARS = 512 * 1024;
/** Where one object of an array ends and the next begins, as JSON.stringify and the server write it. */
const BETWEEN = '},{"';

/**
 * JSON.parse of a large array of objects, a slice at a time with the browser free in between
 * (one JSON.parse of the 100,000-product catalogue blocks the page for a quarter of a second or
 * more). The text is cut where an object seems to end; a cut that is not between two elements
 * (inside a string or a nested array) leaves an element unfinished, so that slice does not parse
 * and the next cut is tried. Text in another layout is parsed in one go.
 */
export async function parseArrayInSlices<T>(text: string, sliceChars = SLICE_CHARS): Promise<T[]> {
  if (text.length <= sliceChars || !text.startsWith("[{")) return JSON.parse(text) as T[];
  const out: T[] = [];
  let start = 1;
  let from = start + sliceChars;
  for (;;) {
    const cut = text.indexOf(BETWEEN, from);
    if (cut < 0) break;
    let part: T[] | null = null;
    try {
      part = JSON.parse(`[${text.slice(start, cut + 1)}]`) as T[];
    } catch {
      part = null;
    }
    if (part === null) {
      from = cut + 1;
      continue;
    }
    for (const item of part) out.push(item);
    start = cut + 2;
    from = start + sliceChars;
    await yieldToBrowser();
  }
  const rest = JSON.parse(`[${text.slice(start)}`) as T[];
  for (const item of rest) out.push(item);
  return out;
}
