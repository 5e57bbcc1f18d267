import { gtinKey } from "../../../../contract/gtin";
import type { Product } from "../../../../contract/products";
import { inSlices } from "../../../lib/slices";

/** One product changed in its slot (`previous`: the copy it replaced), or joined the catalogue (no `previous`). */
export interface CatalogueChange {
  slot: number;
  previous?: Product;
}

/**
 * What changed in the catalogue since the last notice: "reset" when it was loaded (every slot
 * may hold another product), else the slots that changed, in order.
 */
export type CatalogueChanges = "reset" | readonly CatalogueChange[];

/**
 * What a copy of a product the store does not know yet does (a known product's newer copy always
 * replaces the stored one):
 * - "join": it joins the catalogue in the next slot, in front of the list (a server's answer, a
 *   catch-up, a live event on a screen with the whole catalogue);
 * - "set-aside": it is kept loose, known but in no slot, until a list load places it (the list's
 *   first page, the products kept offline before a reload);
 * - "skip": it is left out (a live event on a screen with only the products it looked up).
 */
export type IfUnknown = "join" | "set-aside" | "skip";

/**
 * The client's one copy of each product. The catalogue is in slots numbered in the order this
 * tab came to know the products: a list load numbers the list from its oldest, a product new to
 * this tab takes the next slot, so the list's order (newest first) is the slots from the last. A
 * newer copy (higher revision) replaces a product in its slot, whichever way it came; a slot
 * changes only when a list is loaded. Barcodes are found as GTINs (contract/gtin.ts), as the
 * server finds them.
 */
export class ProductSlots {
  private slots: Product[] = [];
  private slotById = new Map<number, number>();
  /** Products known but in no slot (set aside until a list load places them). */
  private readonly loose = new Map<number, Product>();
  private idByBarcode = new Map<string, number>();
  private newestFirstCache: Product[] | null = null;
  private changes: CatalogueChange[] | "reset" | null = null;
  /** Copies accepted while a list is being taken in: applied again over it. */
  private acceptedDuringLoad: Array<[Product, IfUnknown]> | null = null;

  get(id: number): Product | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? this.loose.get(id) : this.slots[slot];
  }

  /** Products in the catalogue (slots 0 to count - 1; the newest in the last). */
  count(): number {
    return this.slots.length;
  }

  at(slot: number): Product {
    return this.slots[slot] as Product;
  }

  /** The catalogue, newest first: the same array until the next change. */
  newestFirst(): readonly Product[] {
    this.newestFirstCache ??= this.slots.slice().reverse();
    return this.newestFirstCache;
  }

  /** A known product by barcode, or by another form of its GTIN. */
  byBarcode(barcode: string): Product | undefined {
    const id = this.idByBarcode.get(barcode) ?? this.idByBarcode.get(gtinKey(barcode));
    return id === undefined ? undefined : this.get(id);
  }

  /** Keeps `p` when it is newer than the stored copy, or, for a product not known yet, as `ifUnknown` says. True when kept. */
  accept(p: Product, ifUnknown: IfUnknown): boolean {
    const slot = this.slotById.get(p.id);
    const old = slot === undefined ? this.loose.get(p.id) : this.slots[slot];
    if (old ? p.revision <= old.revision : ifUnknown === "skip") return false;
    this.acceptedDuringLoad?.push([p, ifUnknown]);
    if (old && old.barcode !== p.barcode) {
      for (const b of [old.barcode, gtinKey(old.barcode)]) if (this.idByBarcode.get(b) === p.id) this.idByBarcode.delete(b);
    }
    indexBarcode(this.idByBarcode, p);
    if (slot !== undefined) {
      this.slots[slot] = p;
      this.noteChange({ slot, previous: old });
    } else if (ifUnknown === "join") {
      this.loose.delete(p.id);
      this.slotById.set(p.id, this.slots.length);
      this.noteChange({ slot: this.slots.length });
      this.slots.push(p);
    } else {
      this.loose.set(p.id, p);
    }
    this.newestFirstCache = null;
    return true;
  }

  /**
   * The list (newest first) becomes the catalogue, in slices (100,000 products take a while to
   * index): the list from its oldest, then the products this tab knew that the list does not hold
   * yet (they are newer: they show first). Of two copies of a product the newer is kept, and
   * copies accepted meanwhile are applied again over it.
   */
  async takeList(products: readonly Product[]): Promise<void> {
    this.acceptedDuringLoad = [];
    try {
      await this.replaceWith(products);
      const accepted = this.acceptedDuringLoad;
      this.acceptedDuringLoad = null;
      for (const [p, ifUnknown] of accepted) this.accept(p, ifUnknown);
    } finally {
      this.acceptedDuringLoad = null;
    }
  }

  /** The changes since the last call: "reset" after a list load, else the slots that changed; null for none. */
  takeChanges(): CatalogueChanges | null {
    const changes = this.changes;
    this.changes = null;
    return changes;
  }

  private async replaceWith(products: readonly Product[]): Promise<void> {
    const n = products.length;
    // Pushed in order: an array made with its length and filled would be a slow, sparse one at this size.
    const slots: Product[] = [];
    const slotById = new Map<number, number>();
    await inSlices(n, (i) => {
      const p = products[n - 1 - i] as Product;
      const old = this.get(p.id);
      slots.push(old && old.revision > p.revision ? old : p);
      slotById.set(p.id, i);
    });
    const idByBarcode = new Map<string, number>();
    await inSlices(slots.length, (i) => indexBarcode(idByBarcode, slots[i] as Product));
    // Products known loosely (looked up, kept offline before a reload, or the first page, which
    // may come during the slices above) join too: the shared snapshot may predate them, and a
    // catch-up would find them unchanged.
    // They are newer than the list: after it, oldest first as the list's order has it (the first
    // page comes newest first).
    const extra = [...this.slots, ...this.loose.values()].filter((p) => !slotById.has(p.id)).sort(oldestFirst);
    for (const p of extra) {
      slotById.set(p.id, slots.length);
      slots.push(p);
      indexBarcode(idByBarcode, p);
    }
    this.loose.clear();
    this.slots = slots;
    this.slotById = slotById;
    this.idByBarcode = idByBarcode;
    this.newestFirstCache = null;
    this.changes = "reset";
  }

  private noteChange(change: CatalogueChange): void {
    if (this.changes === "reset") return;
    this.changes ??= [];
    this.changes.push(change);
  }
}

/** The list's order reversed (it is newest first: by creation, then by id). */
function oldestFirst(a: Product, b: Product): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id - b.id;
}

/** A product under its barcode and, when it differs, the GTIN form of it (lookups find either). */
function indexBarcode(index: Map<string, number>, p: Product): void {
  index.set(p.barcode, p.id);
  const key = gtinKey(p.barcode);
  if (key !== p.barcode) index.set(key, p.id);
}
