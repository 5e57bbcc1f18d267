import { setImmediate as nextTurn } from "node:timers/promises";
import { checkImportRow, type ImportRowInput, type RowCheck } from "../../../contract/import.js";
import type { Database } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { recordFirstRows } from "./import.plan.js";
import { existingBarcodes } from "./import.repo.js";
import { IMPORT_CHUNK_ROWS, type ImportBody } from "./import-body.js";
import { chunkAt } from "./import-jobs.repo.js";

/** Barcodes per statement when looking for the import's products before the first batch: short statements, so taps get in between. */
const EXISTING_PER_STATEMENT = 5_000;

/** A chunk's rows, each checked (checkImportRow) with its row number in the file. */
interface CheckedChunk {
  start: number;
  checks: RowCheck[];
}

/**
 * The chunks of an import as the process that staged them still has them: their JSON texts, in
 * order (part 0's chunks of a one-call import). Read from these instead of from `import_chunks`,
 * they are the same rows (they were stored from these texts), read back for nothing.
 */
export type StagedChunks = Pick<ImportBody, "text">;

/**
 * A committed import's stored rows as the runner reads them, checked: chunk by chunk (a chunk is
 * read and checked once per batch run through it, not once per batch), and the first valid row of
 * every barcode (its GTIN key) in the whole import, worked out once before the first batch. A
 * later row with the same key is a duplicate wherever it falls. The stored rows never change once
 * committed, so a runner that resumes an import works the same answer out again. Rows this
 * process staged (a one-call import: at most IMPORT_MAX_ROWS) are checked once and kept checked.
 * Also which rows matched a product before the first batch (`mayExist`): a batch locks only
 * those, and inserts the rest (a new price list otherwise spends its batches looking up, one
 * batch at a time, barcodes that are not there).
 */
export class StoredImportRows {
  private chunk: CheckedChunk | undefined;

  private constructor(
    private readonly database: Database,
    private readonly importId: string,
    private readonly total: number,
    private readonly firstRowNumber: number,
    private readonly firstRows: Map<string, number>,
    private readonly staged: CheckedChunk[] | undefined,
    private readonly existing: Set<string>,
  ) {}

  /**
   * Reads and checks every chunk once (one statement each, people first between them; or from
   * `staged`, the texts this process stored) to find each key's first row.
   */
  static async load(
    database: Database,
    importId: string,
    total: number,
    firstRowNumber: number,
    staged?: StagedChunks,
  ): Promise<StoredImportRows> {
    const firstRows = new Map<string, number>();
    const existing = new Set<string>();
    // Each few thousand barcodes are looked up as soon as they are checked, while the next chunks
    // are, instead of all the checks first and then all the look-ups.
    const lookUps: Array<Promise<void>> = [];
    let barcodes: string[] = [];
    const lookUp = (codes: string[]) => {
      const done = (async () => {
        await yieldToPeople(database);
        for (const code of await existingBarcodes(database.bulk.db, codes)) existing.add(code);
      })();
      done.catch(() => {}); // reported by the Promise.all below, not as an unhandled rejection meanwhile
      lookUps.push(done);
    };
    const kept: CheckedChunk[] | undefined = staged ? [] : undefined;
    for (let index = 0; index < total; ) {
      let chunk: { start: number; rows: ImportRowInput[] } | undefined;
      if (staged) chunk = StoredImportRows.fromStaged(staged, index);
      else {
        await yieldToPeople(database);
        chunk = await chunkAt(database.bulk.db, importId, index);
      }
      if (!chunk) break;
      const checked = check(chunk, firstRowNumber);
      barcodes.push(...recordFirstRows(firstRows, checked.checks, firstRowNumber + chunk.start));
      kept?.push(checked);
      index = chunk.start + chunk.rows.length;
      if (barcodes.length >= EXISTING_PER_STATEMENT) {
        lookUp(barcodes);
        barcodes = [];
      }
      // One chunk's checks at a time: a large import never holds the event loop for long.
      await nextTurn();
    }
    if (barcodes.length > 0) lookUp(barcodes);
    await Promise.all(lookUps);
    return new StoredImportRows(database, importId, total, firstRowNumber, firstRows, kept, existing);
  }

  /** The staged chunk holding row index `index` (every chunk but the last has IMPORT_CHUNK_ROWS rows). */
  private static fromStaged(staged: StagedChunks, index: number): { start: number; rows: ImportRowInput[] } | undefined {
    const at = Math.floor(index / IMPORT_CHUNK_ROWS);
    const text = staged.text(at);
    if (text === undefined) return undefined;
    return { start: at * IMPORT_CHUNK_ROWS, rows: JSON.parse(text) as ImportRowInput[] };
  }

  /** Whether a row with this GTIN key and barcode matched a product before the first batch (writeBatch looks up only those). */
  mayExist(key: string, barcode: string): boolean {
    return this.existing.has(key) || this.existing.has(barcode);
  }

  /** The file row where the import's first valid row with this GTIN key is. */
  firstRowOf(key: string): number | undefined {
    return this.firstRows.get(key);
  }

  /** Up to `size` rows from row index `from`, checked, within one chunk; `to` is the index after the last. */
  async slice(from: number, size: number): Promise<{ to: number; checks: RowCheck[] }> {
    if (from >= this.total) return { to: from, checks: [] };
    let chunk = this.staged?.[Math.floor(from / IMPORT_CHUNK_ROWS)] ?? this.chunk;
    if (!chunk || from < chunk.start || from >= chunk.start + chunk.checks.length) {
      const read = await chunkAt(this.database.bulk.db, this.importId, from);
      if (!read) throw new Error(`Import ${this.importId}: no stored rows at ${from}`);
      chunk = check(read, this.firstRowNumber);
      this.chunk = chunk;
    }
    const to = Math.min(from + size, chunk.start + chunk.checks.length);
    return { to, checks: chunk.checks.slice(from - chunk.start, to - chunk.start) };
  }
}

function check(chunk: { start: number; rows: ImportRowInput[] }, firstRowNumber: number): CheckedChunk {
  return { start: chunk.start, checks: chunk.rows.map((input, i) => checkImportRow(input, firstRowNumber + chunk.start + i - 2)) };
}
