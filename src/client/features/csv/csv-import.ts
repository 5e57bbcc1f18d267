import Papa from "papaparse";
import { unsafeCell } from "../../../contract/csv-cells";
import { checkImportRow, type ImportRow, type ImportRowInput } from "../../../contract/import";
import { CSV_ERRORS_SHOWN, CSV_PREVIEW_ROWS, csvMessages, MESSAGES } from "../../../contract/rules";
import type { CsvRow } from "./csv-format";

export const PARSE_ERROR_PREFIX = "Error parsing CSV: ";

export function isCsvFileName(name: string): boolean {
  return name.toLowerCase().endsWith(".csv");
}

export const NOT_CSV_MESSAGE = MESSAGES.csvNotCsv;

export interface ParsedCsv {
  fields: string[];
  rows: CsvRow[];
}

const PARSE_OPTIONS = {
  header: true,
  skipEmptyLines: "greedy",
  // trim() also drops a UTF-8 byte order mark.
  transformHeader: (h: string) => h.trim().toLowerCase(),
  transform: (value: string) => unsafeCell(value),
} as const;

function fatal(errors: Papa.ParseError[]): Papa.ParseError | undefined {
  return errors.find((e) => e.type === "Quotes");
}

function parseFailure(error: { message: string; row?: number }): Error {
  const where = error.row === undefined ? "" : ` (row ${error.row + 2})`;
  return new Error(`${PARSE_ERROR_PREFIX}${error.message}${where}`);
}

/** Parses CSV text (headers trimmed and lower-cased, formula quotes undone). */
export function parseCsvText(text: string): ParsedCsv {
  const result = Papa.parse<CsvRow>(text, PARSE_OPTIONS);
  const bad = fatal(result.errors);
  if (bad) throw parseFailure(bad);
  return { fields: result.meta.fields ?? [], rows: result.data };
}

/** Parses a file in chunks, reporting progress (0 to 1) for large files. */
export function parseCsvFile(file: File, onProgress?: (fraction: number) => void): Promise<ParsedCsv> {
  return new Promise((resolve, reject) => {
    const rows: CsvRow[] = [];
    let fields: string[] = [];
    let failed = false;
    Papa.parse<CsvRow>(file, {
      ...PARSE_OPTIONS,
      chunkSize: 256 * 1024,
      chunk: (result, parser) => {
        const bad = fatal(result.errors);
        if (bad) {
          // Reject first: abort() calls `complete`, which would otherwise resolve with no rows.
          failed = true;
          reject(parseFailure(bad));
          parser.abort();
          return;
        }
        if (result.meta.fields) fields = result.meta.fields;
        for (const row of result.data) rows.push(row);
        if (file.size > 0) onProgress?.(Math.min(1, result.meta.cursor / file.size));
      },
      complete: () => {
        if (!failed) resolve({ fields, rows });
      },
      error: (err) => reject(parseFailure({ message: err.message })),
    });
  });
}

export interface CheckedRows {
  /** Rows ready to send, normalised (trimmed, blank year null, blank quantity 0, is_active boolean). */
  valid: ImportRow[];
  errors: string[];
}

/** Every row through the contract's `checkImportRow` (row N = index + 2). */
export function checkRows(rows: readonly ImportRowInput[]): CheckedRows {
  const valid: ImportRow[] = [];
  const errors: string[] = [];
  rows.forEach((row, index) => {
    const check = checkImportRow(row, index);
    if (check.ok) valid.push(check.row);
    else errors.push(...check.errors);
  });
  return { valid, errors };
}

/** At most 10 errors, then '... and N more errors'. */
export function errorSummary(errors: readonly string[]): { shown: string[]; more: string | null } {
  const shown = errors.slice(0, CSV_ERRORS_SHOWN);
  const rest = errors.length - shown.length;
  return { shown, more: rest > 0 ? csvMessages.moreErrors(rest) : null };
}

export function previewRows<T>(rows: readonly T[]): T[] {
  return rows.slice(0, CSV_PREVIEW_ROWS);
}
