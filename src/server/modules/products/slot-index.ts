/**
 * Which slot holds an id, as an open-addressed hash table in one Int32Array: for the catalogue
 * mirror's 100,000 products that is 1 MB outside V8's heap where a Map<number, number> held
 * 3.5 MB of heap objects (issue 42). Ids are never removed (products are only disabled), so
 * there is no deletion to handle. The ids themselves stay with the caller (`idOf`), which keeps
 * them anyway.
 */
export class SlotIndex {
  /** Each cell: a slot + 1, or 0 when empty. At most half full. */
  private cells = new Int32Array(2_048);
  private count = 0;

  constructor(private readonly idOf: (slot: number) => number) {}

  /** The slot that holds `id`, or undefined. */
  get(id: number): number | undefined {
    const mask = this.cells.length - 1;
    for (let at = hash(id) & mask; ; at = (at + 1) & mask) {
      const cell = this.cells[at] as number;
      if (cell === 0) return undefined;
      if (this.idOf(cell - 1) === id) return cell - 1;
    }
  }

  /** Records that `slot` holds `id` (an id not recorded before). */
  add(id: number, slot: number): void {
    if (2 * (this.count + 1) > this.cells.length) this.grow();
    this.place(id, slot);
    this.count++;
  }

  private place(id: number, slot: number): void {
    const mask = this.cells.length - 1;
    let at = hash(id) & mask;
    while (this.cells[at] !== 0) at = (at + 1) & mask;
    this.cells[at] = slot + 1;
  }

  private grow(): void {
    const old = this.cells;
    this.cells = new Int32Array(old.length * 2);
    for (const cell of old) if (cell !== 0) this.place(this.idOf(cell - 1), cell - 1);
  }
}

/** Scatters ids over the table (a multiplicative hash), so that a serial's ids do not fill long runs of cells to probe through. */
const hash = (id: number) => Math.imul(id, 0x9e3779b1) >>> 0;
