import { setImmediate as nextTurn } from "node:timers/promises";
import { gtinKey } from "../../../contract/gtin.js";
import { checkImportRow, type ImportRowInput } from "../../../contract/import.js";
import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { IMPORT_CHUNK_ROWS } from "./import-body.js";
import { chunkAt } from "./import-jobs.repo.js";

interface Chunk {
  start: number;
  rowCount: number;
  rows: ImportRowInput[];
}

/**
 * The chunks of an import as the process that staged them still has them: their JSON texts, in
 * order (part 0's chunks of a one-call import). Read from these instead of from `import_chunks`,
 * they are the same rows (they were stored from these texts), read back for nothing.
 */
export type StagedChunks = readonly string[];

/**
 * A committed import's stored rows as the runner reads them: chunk by chunk (a chunk is read once
 * per batch run through it, not once per batch), and the first valid row of every barcode (its
 * GTIN key) in the whole import, worked out once before the first batch. A later row with the same
 * key is a duplicate wherever it falls. The stored rows never change once committed, so a runner
 * that resumes an import works the same answer out again.
 */
export class StoredImportRows {
  private chunk: Chunk | undefined;

  private constructor(
    private readonly database: Database,
    private readonly importId: string,
    private readonly total: number,
    private readonly firstRows: Map<string, number>,
    private readonly staged: StagedChunks | undefined,
  ) {}

  /**
   * Reads every chunk once (one statement each, people first between them; or from `staged`,
   * the texts this process stored) to find each key's first row.
   */
  static async load(
    database: Database,
    importId: string,
    total: number,
    firstRowNumber: number,
    staged?: StagedChunks,
  ): Promise<StoredImportRows> {
    const firstRows = new Map<string, number>();
    for (let index = 0; index < total; ) {
      let chunk: Chunk | undefined;
      if (staged) chunk = StoredImportRows.fromStaged(staged, index);
      else {
        await yieldToPeople(database);
        chunk = await chunkAt(database.bulk.db, importId, index);
      }
      if (!chunk) break;
      chunk.rows.forEach((input, i) => {
        const row = firstRowNumber + chunk.start + i;
        const check = checkImportRow(input, row - 2);
        if (!check.ok) return;
        const key = gtinKey(check.row.barcode);
        if (!firstRows.has(key)) firstRows.set(key, row);
      });
      index = chunk.start + chunk.rowCount;
      // One chunk's checks at a time: a large import never holds the event loop for long.
      await nextTurn();
    }
    return new StoredImportRows(database, importId, total, firstRows, staged);
  }

  /** The staged chunk holding row index `index` (every chunk but the last has IMPORT_CHUNK_ROWS rows). */
  private static fromStaged(staged: StagedChunks, index: number): Chunk | undefined {
    const at = Math.floor(index / IMPORT_CHUNK_ROWS);
    const text = staged[at];
    if (text === undefined) return undefined;
    const rows = JSON.parse(text) as ImportRowInput[];
    return { start: at * IMPORT_CHUNK_ROWS, rowCount: rows.length, rows };
  }

  /** The file row where the import's first valid row with this GTIN key is. */
  firstRowOf(key: string): number | undefined {
    return this.firstRows.get(key);
  }

  /** Up to `size` rows from row index `from`, within one chunk; `to` is the index after the last. */
  async slice(from: number, size: number): Promise<{ to: number; rows: ImportRowInput[] }> {
    if (from >= this.total) return { to: from, rows: [] };
    let chunk = this.chunk;
    if (!chunk || from < chunk.start || from >= chunk.start + chunk.rowCount) {
      chunk = this.staged ? StoredImportRows.fromStaged(this.staged, from) : await chunkAt(this.database.bulk.db, this.importId, from);
      if (!chunk) throw new Error(`Import ${this.importId}: no stored rows at ${from}`);
      this.chunk = chunk;
    }
    const to = Math.min(from + size, chunk.start + chunk.rowCount);
    return { to, rows: chunk.rows.slice(from - chunk.start, to - chunk.start) };
  }
}
