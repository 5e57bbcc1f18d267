import type { Db } from "../../db/client.js";
import { compactProductJson, expandProductJson } from "./compact-json.js";
import { type JsonParts, joinJsonParts } from "./json-parts.js";
import { type CatalogueRevision, type MirrorPageAfter, mirrorPage, readCatalogueRevision } from "./products.repo.js";
import { SlotIndex } from "./slot-index.js";
import { TextArena } from "./text-arena.js";

/** Products read per statement: on the embedded database a statement holds its only connection, so each stays short. */
const PAGE_ROWS = 1_000;
const FIRST_SLOTS = 1_024;

/**
 * The catalogue in this process's memory, kept current by revision: loaded once a page at a
 * time, then only the products changed since (migration 0002: the watermark read first, the
 * products in a later statement). The list and `since` answers are made from it, so no request
 * makes the database build a 100,000-product document (on the embedded database that one
 * statement held every tap for seconds). Products are never deleted, only disabled.
 *
 * Each product is a slot, found by id in a SlotIndex: its id, revision and creation time in
 * typed arrays, and its JSON text (as its values alone, compact-json.ts, or whole when it cannot
 * be) in a TextArena, outside V8's heap: 100,000 products are a few objects to the collector, not
 * 300,000 (issue 42).
 */
export class CatalogueMirror {
  private ids = new Float64Array(FIRST_SLOTS);
  private readonly slotOf = new SlotIndex((slot) => this.ids[slot] as number);
  private revisions = new Float64Array(FIRST_SLOTS);
  private created = new Float64Array(FIRST_SLOTS);
  /** Each slot's text. */
  private readonly texts = new TextArena();
  /** The list's order (newest first) as slots, or null when it must be sorted again; `added`: new slots since. */
  private ordered: Uint32Array | null = null;
  private added: number[] = [];
  /** Every change up to this revision is here; -1 before the first load. */
  private revision = -1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Db) {}

  /**
   * The whole list, newest first, brought up to the catalogue as committed when this was called:
   * the products as items, and `text` to make each one's JSON as the caller writes it
   * (compressJoined): never all at once. Changes read after this never change what it writes.
   */
  list(): Promise<{ revision: CatalogueRevision; items: Float64Array; text: (item: number) => string }> {
    return this.exclusive(async () => {
      const revision = await this.readChanges();
      const { items, text } = this.texts.snapshot(this.order());
      return { revision, items, text: (item) => jsonOf(text(item)) };
    });
  }

  /** `{revision, products}`: every product whose revision is above `since`, up to the catalogue's watermark now. */
  since(since: number): Promise<{ revision: number; json: JsonParts }> {
    return this.exclusive(async () => {
      const { watermark } = await this.readChanges();
      return { revision: watermark, json: await this.sinceJson(since, watermark) };
    });
  }

  /**
   * The list's first `limit` products (newest first), as the whole list would begin now: a first
   * screenful while the whole list downloads.
   */
  first(limit: number): Promise<{ revision: number; json: JsonParts }> {
    return this.exclusive(async () => {
      const { watermark } = await this.readChanges();
      return { revision: watermark, json: await joinJsonParts(this.order().subarray(0, limit), this.json(), "[", "]") };
    });
  }

  /** Reads the changes committed since the last catch-up (no list made). */
  catchUp(): Promise<void> {
    return this.exclusive(async () => {
      await this.readChanges();
    });
  }

  /** One catch-up or answer at a time: an answer is made from the mirror as its own catch-up left it. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  private async readChanges(): Promise<CatalogueRevision> {
    const now = await readCatalogueRevision(this.db);
    if (this.revision < 0) {
      // The first load, by id; changes made while it runs are read by the next catch-up.
      await this.readPages((last) => ({ byId: last?.id ?? 0 }));
    } else {
      const since = this.revision;
      // Changes above the watermark are read too (committed, visible); the next catch-up starts at
      // the watermark again, so a change still in flight below them is read once it commits.
      await this.readPages((last) => ({ since, last }));
    }
    this.revision = Math.max(this.revision, now.watermark);
    return now;
  }

  /** Reads products a page at a time, each page after the last row of the one before. */
  private async readPages(after: (last: { id: number; revision: number } | undefined) => MirrorPageAfter): Promise<void> {
    let last: { id: number; revision: number } | undefined;
    for (;;) {
      const rows = await mirrorPage(this.db, after(last), PAGE_ROWS);
      for (const row of rows) {
        last = row;
        this.put(row.id, row.revision, row.created, compactProductJson(row.json) ?? row.json);
      }
      if (rows.length < PAGE_ROWS) return;
    }
  }

  private put(id: number, revision: number, created: number, text: string): void {
    // Changed in place: the list's order (by creation) keeps the same slots. A new product takes
    // the arena's next slot; its text goes first, so a text the arena refuses records nothing.
    const known = this.slotOf.get(id);
    const slot = known ?? this.texts.slots;
    this.texts.set(slot, text);
    if (known === undefined) this.newSlot(id, slot);
    this.revisions[slot] = revision;
    this.created[slot] = created;
  }

  private newSlot(id: number, slot: number): void {
    if (slot === this.ids.length) {
      const grown = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.ids = grown(this.ids);
      this.revisions = grown(this.revisions);
      this.created = grown(this.created);
    }
    this.ids[slot] = id;
    this.slotOf.add(id, slot);
    this.added.push(slot);
  }

  /** Every slot in the list's order (newest first, then by id), sorted again only when products were added. */
  private order(): Uint32Array {
    const { created, ids } = this;
    const newestFirst = (a: number, b: number) =>
      (created[b] as number) - (created[a] as number) || (ids[b] as number) - (ids[a] as number);
    if (this.added.length > 0) {
      const added = this.added.sort(newestFirst);
      const oldest = added.at(-1);
      const first = this.ordered?.[0];
      // New products are the newest: they go in front without sorting 100,000 slots again.
      if (this.ordered && oldest !== undefined && (first === undefined || newestFirst(oldest, first) < 0)) {
        const next = new Uint32Array(added.length + this.ordered.length);
        next.set(added);
        next.set(this.ordered, added.length);
        this.ordered = next;
      } else {
        this.ordered = new Uint32Array(this.texts.slots);
        for (let slot = 0; slot < this.ordered.length; slot++) this.ordered[slot] = slot;
        this.ordered.sort(newestFirst);
      }
      this.added = [];
    }
    return this.ordered ?? new Uint32Array(0);
  }

  private async sinceJson(since: number, revision: number): Promise<JsonParts> {
    const { revisions, ids } = this;
    const changed: number[] = [];
    for (let slot = 0; slot < this.texts.slots; slot++) if ((revisions[slot] as number) > since) changed.push(slot);
    changed.sort((a, b) => (revisions[a] as number) - (revisions[b] as number) || (ids[a] as number) - (ids[b] as number));
    return joinJsonParts(changed, this.json(), `{"revision":${revision},"products":[`, "]}");
  }

  /** A slot's JSON as it is now: for answers made within one exclusive() turn. */
  private json(): (slot: number) => string {
    const text = this.texts.current();
    return (slot) => jsonOf(text(slot));
  }
}

/** A product's JSON from its kept text: a whole one starts with its brace, values alone with the id. */
const jsonOf = (kept: string) => (kept.startsWith("{") ? kept : expandProductJson(kept));
