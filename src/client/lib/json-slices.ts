import { yieldToOtherWork } from "./slices";

/** About this many characters of JSON are parsed between two yields (a few milliseconds). */
const SLICE_CHARS = 512 * 1024;
/** Where one object of an array ends and the next begins, as JSON.stringify and the server write it. */
const BETWEEN = '},{"';

/**
 * The text of a JSON array of objects, parsed a slice at a time as it comes. The text is cut
 * where an object seems to end; a cut that is not between two elements (inside a string or a
 * nested array) leaves an element unfinished, so that slice does not parse and the next cut is
 * tried. Text in another layout is parsed in one go at the end. (The page's head script,
 * early/early-catalogue.ts, parses the catalogue with this too.)
 */
class ArraySlicer<T> {
  private readonly out: T[] = [];
  /** The text not parsed yet: after the array's "[" once the layout is known. */
  private text = "";
  /** Sliced (an array of objects), whole (another layout), or not known yet. */
  private layout: "sliced" | "whole" | null = null;
  /** Where the next cut is looked for in `text`. */
  private from: number;

  constructor(private readonly sliceChars: number) {
    this.from = sliceChars;
  }

  add(more: string): void {
    this.text += more;
  }

  /** Parses the next slice when its text is all there; answers whether it did. */
  next(): boolean {
    if (this.layout === null && this.text.length >= 2) {
      this.layout = this.text.startsWith("[{") ? "sliced" : "whole";
      if (this.layout === "sliced") this.text = this.text.slice(1);
    }
    if (this.layout !== "sliced") return false;
    for (;;) {
      const cut = this.text.indexOf(BETWEEN, this.from);
      if (cut < 0) {
        // Looked at up to here: a cut may yet begin in the last three characters.
        this.from = Math.max(this.from, this.text.length - BETWEEN.length + 1);
        return false;
      }
      let part: T[] | null = null;
      try {
        part = JSON.parse(`[${this.text.slice(0, cut + 1)}]`) as T[];
      } catch {
        part = null;
      }
      if (part === null) {
        this.from = cut + 1;
        continue;
      }
      for (const item of part) this.out.push(item);
      this.text = this.text.slice(cut + 2);
      this.from = this.sliceChars;
      return true;
    }
  }

  /** The whole array (throws as JSON.parse does on broken text). */
  end(): T[] {
    if (this.layout !== "sliced") return JSON.parse(this.text) as T[];
    const rest = JSON.parse(`[${this.text}`) as T[];
    for (const item of rest) this.out.push(item);
    return this.out;
  }
}

/**
 * JSON.parse of a large array of objects, a slice at a time with the browser free in between (any
 * other task first: the first screen renders before the rest of the catalogue is parsed)
 * (one JSON.parse of the 100,000-product catalogue blocks the page for a quarter of a second or
 * more).
 */
export async function parseArrayInSlices<T>(text: string, sliceChars = SLICE_CHARS): Promise<T[]> {
  const slicer = new ArraySlicer<T>(sliceChars);
  slicer.add(text);
  while (slicer.next()) await yieldToOtherWork();
  return slicer.end();
}

/**
 * parseArrayInSlices of a response's body, parsed while it downloads: read a chunk at a time
 * with the browser free in between (`response.text()` of the 100,000-product catalogue takes
 * the whole body in one task of a few hundred milliseconds), so the last slice is parsed soon
 * after the last byte arrives.
 */
export async function parseResponseInSlices<T>(response: Response, sliceChars = SLICE_CHARS): Promise<T[]> {
  if (!response.body) return parseArrayInSlices<T>(await response.text(), sliceChars);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const slicer = new ArraySlicer<T>(sliceChars);
  for (;;) {
    const { done, value } = await reader.read();
    slicer.add(done ? decoder.decode() : decoder.decode(value, { stream: true }));
    let parsed = false;
    while (slicer.next()) {
      parsed = true;
      await yieldToOtherWork();
    }
    if (done) return slicer.end();
    if (!parsed) await yieldToOtherWork();
  }
}
