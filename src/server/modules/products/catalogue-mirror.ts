import type { Db } from "../../db/client.js";
import { compactProductJson, expandProductJson } from "./compact-json.js";
import { type JsonParts, joinJsonParts } from "./json-parts.js";
import { type CatalogueRevision, type MirrorPageAfter, mirrorPage, readCatalogueRevision } from "./products.repo.js";

/** One product: its JSON text kept as its values alone (compact-json.ts), or whole when it cannot be. */
interface Entry {
  id: number;
  revision: number;
  created: number;
  text: string;
}

/** Products read per statement: on the embedded database a statement holds its only connection, so each stays short. */
const PAGE_ROWS = 1_000;

/**
 * The catalogue in this process's memory, kept current by revision: loaded once a page at a
 * time, then only the products changed since (migration 0002: the watermark read first, the
 * products in a later statement). The list and `since` answers are made from it, so no request
 * makes the database build a 100,000-product document (on the embedded database that one
 * statement held every tap for seconds). Products are never deleted, only disabled.
 */
export class CatalogueMirror {
  private readonly entries = new Map<number, Entry>();
  /** The list's order (newest first), or null when it must be sorted again; `added`: new products since. */
  private ordered: Entry[] | null = null;
  private added: Entry[] = [];
  /** Every change up to this revision is here; -1 before the first load. */
  private revision = -1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Db) {}

  /**
   * The whole list, newest first, brought up to the catalogue as committed when this was called:
   * the products' texts as kept (nothing copied), and `text` to make each one's JSON as the caller
   * writes it (compressJoined): never all at once. A change read after this replaces an entry's
   * text, never the ones handed out.
   */
  list(): Promise<{ revision: CatalogueRevision; items: string[]; text: (kept: string) => string }> {
    return this.exclusive(async () => {
      const revision = await this.readChanges();
      return { revision, items: this.order().map((e) => e.text), text: jsonOf };
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
      return { revision: watermark, json: await joinJsonParts(this.order().slice(0, limit), json, "[", "]") };
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
        // A literal: every entry shares one shape (a spread copy gave each its own, 200 bytes more).
        this.put({ id: row.id, revision: row.revision, created: row.created, text: compactProductJson(row.json) ?? row.json });
      }
      if (rows.length < PAGE_ROWS) return;
    }
  }

  private put(entry: Entry): void {
    const known = this.entries.get(entry.id);
    // Changed in place: the list's order (by creation) keeps the same entries.
    if (known) Object.assign(known, entry);
    else {
      this.entries.set(entry.id, entry);
      this.added.push(entry);
    }
  }

  /** Every entry in the list's order (newest first, then by id), sorted again only when products were added. */
  private order(): Entry[] {
    const newestFirst = (a: Entry, b: Entry) => b.created - a.created || b.id - a.id;
    if (this.added.length > 0) {
      const added = this.added.sort(newestFirst);
      const oldest = added.at(-1);
      const first = this.ordered?.[0];
      // New products are the newest: they go in front without sorting 100,000 entries again.
      this.ordered =
        this.ordered && oldest && (!first || newestFirst(oldest, first) < 0)
          ? added.concat(this.ordered)
          : [...this.entries.values()].sort(newestFirst);
      this.added = [];
    }
    return this.ordered ?? [];
  }

  private async sinceJson(since: number, revision: number): Promise<JsonParts> {
    const changed: Entry[] = [];
    for (const e of this.entries.values()) if (e.revision > since) changed.push(e);
    changed.sort((a, b) => a.revision - b.revision || a.id - b.id);
    return joinJsonParts(changed, json, `{"revision":${revision},"products":[`, "]}");
  }
}

/** A product's JSON from its kept text: a whole one starts with its brace, values alone with the id. */
const jsonOf = (kept: string) => (kept.startsWith("{") ? kept : expandProductJson(kept));
const json = (e: Entry) => jsonOf(e.text);
