/**
 * Texts kept as UTF-8 in one buffer outside V8's heap, one per slot (0, 1, 2, ...). The catalogue
 * mirror keeps 100,000 products' texts: as strings they were about 25 MB of the heap that every
 * full collection marks, and that V8 lets the heap grow a multiple of between collections (issue
 * 42). Here they are one object to the collector.
 *
 * A text is never changed in place: a new one is appended and the old one's bytes counted as
 * garbage. When the buffer is full it is copied into a new one, without the garbage once that is
 * more than half; a snapshot taken before keeps the buffer it was taken on, so a list being
 * written while products change writes the texts as they were.
 */

/** Where a slot's text is: its offset × 2^20 + its length in bytes (both exact in a double). */
const LENGTH_BITS = 2 ** 20;
const FIRST_BYTES = 1024 * 1024;
const FIRST_SLOTS = 1_024;

const refLength = (ref: number) => ref % LENGTH_BITS;
const refOffset = (ref: number) => Math.floor(ref / LENGTH_BITS);

export class TextArena {
  private bytes = Buffer.allocUnsafeSlow(FIRST_BYTES);
  private used = 0;
  private garbage = 0;
  private refs = new Float64Array(FIRST_SLOTS);
  private count = 0;

  /** How many slots are set: the next new slot is this one. */
  get slots(): number {
    return this.count;
  }

  /** Sets a slot's text: a slot set before, or the next new one (`slots`). Texts of 1 MB or more are refused, changing nothing. */
  set(slot: number, text: string): void {
    const length = Buffer.byteLength(text);
    if (length >= LENGTH_BITS) throw new Error(`text-arena: a text of ${length} bytes is over the limit`);
    if (slot > this.count) throw new Error(`text-arena: slot ${slot} set before slot ${this.count}`);
    if (slot === this.count) this.newSlot();
    else {
      this.garbage += refLength(this.refs[slot] as number);
      this.refs[slot] = 0; // nothing of it is copied if room is made below
    }
    if (this.used + length > this.bytes.length) this.makeRoom(length);
    const offset = this.used;
    this.used += this.bytes.write(text, offset);
    this.refs[slot] = offset * LENGTH_BITS + length;
  }

  /** Reads slots' texts as they are now: for work done before the next set(). */
  current(): (slot: number) => string {
    const read = this.reader();
    return (slot) => read(this.refs[slot] as number);
  }

  /** These slots' texts as they are now, in this order, whatever is set after: `text` reads each of `items`. */
  snapshot(slots: ArrayLike<number>): { items: Float64Array; text: (item: number) => string } {
    const items = new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) items[i] = this.refs[slots[i] as number] as number;
    return { items, text: this.reader() };
  }

  /** Bytes held, for tests and measurements: the buffer's size, and what is in use. */
  get size(): { capacity: number; used: number; garbage: number } {
    return { capacity: this.bytes.length, used: this.used, garbage: this.garbage };
  }

  /** Reads by ref, on the buffer as it is now (a later one is a new buffer: this one is never written over). */
  private reader(): (ref: number) => string {
    const bytes = this.bytes;
    return (ref) => {
      const offset = refOffset(ref);
      return bytes.toString("utf8", offset, offset + refLength(ref));
    };
  }

  private newSlot(): void {
    if (this.count === this.refs.length) {
      const grown = new Float64Array(this.refs.length * 2);
      grown.set(this.refs);
      this.refs = grown;
    }
    this.refs[this.count++] = 0;
  }

  private makeRoom(length: number): void {
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
      for (let slot = 0; slot < this.count; slot++) {
        const ref = this.refs[slot] as number;
        const size = refLength(ref);
        const offset = refOffset(ref);
        this.bytes.copy(next, at, offset, offset + size);
        this.refs[slot] = at * LENGTH_BITS + size;
        at += size;
      }
      this.used = at;
      this.garbage = 0;
    }
    this.bytes = next;
  }
}
