/**
 * Texts kept as UTF-8 in one buffer outside V8's heap, each found by a number (its ref). The
 * catalogue mirror keeps 100,000 products' texts: as strings they were about 25 MB of the heap
 * that every full collection marks, and that V8 lets the heap grow a multiple of between
 * collections (issue 42). Here they are one object to the collector.
 *
 * A text is never changed in place: a new one is appended and the old one's bytes counted as
 * garbage. When the buffer is full it is copied into a new one, without the garbage once that is
 * more than half; a reader taken before (reader()) keeps the buffer it was taken on, so a list
 * being written while products change writes the texts as they were.
 */

/** A ref: the text's offset × 2^20 + its length in bytes (both exact in a double). */
const LENGTH_BITS = 2 ** 20;
const FIRST_BYTES = 1024 * 1024;

export const refLength = (ref: number) => ref % LENGTH_BITS;
const refOffset = (ref: number) => Math.floor(ref / LENGTH_BITS);

export class TextArena {
  private bytes = Buffer.allocUnsafeSlow(FIRST_BYTES);
  private used = 0;
  private garbage = 0;

  /**
   * Appends a text and answers its ref. `refs` are all the refs kept (the ones the caller will
   * still read): when the buffer is rewritten without its garbage they are updated in place.
   */
  add(text: string, refs: Float64Array, count: number): number {
    const length = Buffer.byteLength(text);
    if (length >= LENGTH_BITS) throw new Error(`text-arena: a text of ${length} bytes is over the limit`);
    if (this.used + length > this.bytes.length) this.makeRoom(length, refs, count);
    const offset = this.used;
    this.used += this.bytes.write(text, offset);
    return offset * LENGTH_BITS + length;
  }

  /** The text at `ref` no longer kept (replaced by a newer one). */
  drop(ref: number): void {
    this.garbage += refLength(ref);
  }

  /** Reads texts by the refs valid now, on the buffer as it is now, whatever is added after. */
  reader(): (ref: number) => string {
    const bytes = this.bytes;
    return (ref) => {
      const offset = refOffset(ref);
      return bytes.toString("utf8", offset, offset + refLength(ref));
    };
  }

  /** Bytes held, for tests and measurements: the buffer's size, and what is in use. */
  get size(): { capacity: number; used: number; garbage: number } {
    return { capacity: this.bytes.length, used: this.used, garbage: this.garbage };
  }

  private makeRoom(length: number, refs: Float64Array, count: number): void {
    const live = this.used - this.garbage;
    const compact = this.garbage > live;
    const needed = (compact ? live : this.used) + length;
    let capacity = Math.max(FIRST_BYTES, this.bytes.length);
    while (capacity < needed * 1.25) capacity *= 2;
    const next = Buffer.allocUnsafeSlow(capacity);
    if (!compact) {
      this.bytes.copy(next, 0, 0, this.used);
    } else {
      let at = 0;
      for (let i = 0; i < count; i++) {
        const ref = refs[i] as number;
        const size = refLength(ref);
        const offset = refOffset(ref);
        this.bytes.copy(next, at, offset, offset + size);
        refs[i] = at * LENGTH_BITS + size;
        at += size;
      }
      this.used = at;
      this.garbage = 0;
    }
    this.bytes = next;
  }
}
