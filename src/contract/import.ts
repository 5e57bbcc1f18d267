import { z } from "zod";
import { centsToAmount, parseAmount } from "./money.js";
import {
  BARCODE_MAX,
  CARD_NUMBER_MAX,
  CONDITIONS,
  type Condition,
  CSV_BARCODE_MIN,
  CSV_IS_ACTIVE_VALUES,
  CSV_TRUE_VALUES,
  csvMessages,
  DETAIL_FIELDS,
  GRADE_MAX,
  GRADERS,
  type Grader,
  LOCATION_MAX,
  NAME_MAX,
  QUANTITY_MAX_EXCLUSIVE,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
  REORDER_POINT_MAX,
  REORDER_POINT_MESSAGE,
  SET_NAME_MAX,
} from "./rules.js";

/** A raw row as read from CSV (strings) or sent by an integrator (numbers/booleans allowed). */
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();
export const importRowInputSchema = z.object({
  barcode: cell,
  product_name: cell,
  vendor: cell,
  release_year: cell,
  quantity_on_hand: cell,
  is_active: cell,
  // The card details, read only when the file has their columns: a key left out leaves the field as it is.
  price: cell,
  cost: cell,
  condition: cell,
  grader: cell,
  grade: cell,
  set_name: cell,
  card_number: cell,
  location: cell,
  reorder_point: cell,
  /**
   * The product's updated_at when the file was exported: the row is then an edit based on the
   * product as it was then (merged like PUT with version); absent, the file's values are written as they are.
   */
  updated_at: cell,
});
export type ImportRowInput = z.infer<typeof importRowInputSchema>;

export const IMPORT_MAX_ROWS = 50_000;
/** Rows per call when a file is sent in parts: each part answers well within the 10 s every call gets. */
export const IMPORT_PART_ROWS = 5_000;
/** Rows one staged import (all its parts) may hold. */
export const IMPORT_JOB_MAX_ROWS = 500_000;
/**
 * The rows' shape is checked by the server a slice at a time (importRowInputSchema), so a
 * 50,000-row body never holds its event loop in one piece; `rows` documents it.
 */
const rowsOf = (what: string) =>
  z
    .array(z.unknown())
    .max(IMPORT_MAX_ROWS, `At most ${IMPORT_MAX_ROWS} rows per ${what}`)
    .describe("Rows: objects with the CSV columns as keys (text, numbers, true/false or null)");
export const importBodySchema = z.object({
  products: rowsOf("import"),
  /** The file's row number of the first product here (a part of a larger file); 2 when absent (row 1 is the header). */
  first_row: z.number().int().min(2).optional(),
});

export type ImportBody = z.infer<typeof importBodySchema>;

export const importQuerySchema = z.object({
  dry_run: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
});

export const importResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.string()),
  /** The import's id (GET /api/imports, undo); absent only on a dry run. */
  import_id: z.string().optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * A file larger than one part: its parts are staged in the database (any server process takes
 * any part), then committed: the import is written as a durable job in short transactions after
 * the commit call answers, resumed after a restart; its outcome is read with GET. Every call
 * answers within seconds.
 */
export const IMPORT_JOB_STATUSES = ["staging", "committing", "done", "failed"] as const;
export const importJobSchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_JOB_STATUSES),
  /** Rows staged so far. */
  received: z.number().int(),
  /** Rows written so far (once committed). */
  processed: z.number().int().optional(),
  result: importResultSchema.optional(),
  error: z.string().optional(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
export const importJobParamsSchema = z.object({ id: z.string().uuid() });
export const importPartParamsSchema = importJobParamsSchema.extend({ part: z.coerce.number().int().min(0).max(10_000) });
export const importPartBodySchema = z.object({ products: rowsOf("part") });

/** The fields an import writes: the spec's (barcode matches) and the card details its file has columns for. */
export const IMPORT_FIELDS = ["product_name", "vendor", "release_year", "quantity_on_hand", "is_active", ...DETAIL_FIELDS] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const importPreviewRowSchema = z.object({
  row: z.number().int(),
  barcode: z.string(),
  action: z.enum(["create", "update", "unchanged", "invalid"]),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  error: z.string().nullable(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

export const importPreviewSchema = importResultSchema.extend({ rows: z.array(importPreviewRowSchema) });
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** A valid row, normalised the way the spec's import does it; a card detail only when its column was there (null when empty). */
export interface ImportRow extends Partial<ImportDetails> {
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: number | null;
  quantity_on_hand: number;
  is_active: boolean;
  /** The export's updated_at of the product (ISO 8601), when the file has it: the row merges (see importRowInputSchema). */
  updated_at?: string;
}

export interface ImportDetails {
  price: number | null;
  cost: number | null;
  condition: Condition | null;
  grader: Grader | null;
  grade: string | null;
  set_name: string | null;
  card_number: string | null;
  location: string | null;
  reorder_point: number | null;
}

export type RowCheck = { ok: true; row: ImportRow } | { ok: false; errors: string[] };

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v).trim());
const INTEGER = /^[+]?\d+$/;
const SIGNED_INTEGER = /^[+-]?\d+$/;

/**
 * The product's CSV row rules (rules.ts csvMessages) plus the server's length limits.
 * `index` is the 0-based data row; messages say "Row index+2" as the spec does.
 */
export function checkImportRow(input: ImportRowInput, index: number): RowCheck {
  const n = index + 2;
  const errors: string[] = [];
  const barcode = text(input.barcode);
  const product_name = text(input.product_name);
  const vendor = text(input.vendor);
  const releaseText = text(input.release_year);
  const quantityText = text(input.quantity_on_hand);
  const activeText = text(input.is_active).toLowerCase();

  if (!barcode) errors.push(csvMessages.missing(n, "barcode"));
  if (!product_name) errors.push(csvMessages.missing(n, "product_name"));
  if (!vendor) errors.push(csvMessages.missing(n, "vendor"));
  if (barcode && barcode.length < CSV_BARCODE_MIN) errors.push(csvMessages.barcodeShort(n));
  if (barcode.length > BARCODE_MAX) errors.push(`Row ${n}: Barcode too long (at most ${BARCODE_MAX} characters)`);
  // Same rule as the API's barcodeSchema: no control characters (C0, DEL and C1).
  if (/\p{Cc}/u.test(barcode)) errors.push(`Row ${n}: Barcode must be printable text`);
  if (product_name.length > NAME_MAX) errors.push(`Row ${n}: Product name too long (at most ${NAME_MAX} characters)`);
  if (vendor.length > NAME_MAX) errors.push(`Row ${n}: Vendor too long (at most ${NAME_MAX} characters)`);

  let quantity = 0;
  if (quantityText !== "") {
    quantity = SIGNED_INTEGER.test(quantityText) ? Number(quantityText) : Number.NaN;
    if (!INTEGER.test(quantityText) || !(quantity >= 0) || quantity >= QUANTITY_MAX_EXCLUSIVE) {
      errors.push(csvMessages.quantity(n));
    }
  }
  let release_year: number | null = null;
  if (releaseText !== "") {
    release_year = SIGNED_INTEGER.test(releaseText) ? Number(releaseText) : Number.NaN;
    if (!(release_year >= RELEASE_YEAR_MIN && release_year <= RELEASE_YEAR_MAX)) errors.push(csvMessages.releaseYear(n));
  }
  if (activeText !== "" && !(CSV_IS_ACTIVE_VALUES as readonly string[]).includes(activeText)) {
    errors.push(csvMessages.isActive(n));
  }
  const details = checkDetails(input, n, errors);
  const updatedText = text(input.updated_at);
  const updatedAt = updatedText === "" ? undefined : new Date(updatedText);
  if (updatedAt && Number.isNaN(updatedAt.getTime())) errors.push(csvMessages.updatedAt(n));
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    row: {
      ...details,
      barcode,
      product_name,
      vendor,
      release_year,
      quantity_on_hand: quantity,
      is_active: activeText === "" || (CSV_TRUE_VALUES as readonly string[]).includes(activeText),
      ...(updatedAt ? { updated_at: updatedAt.toISOString() } : {}),
    },
  };
}

const TEXT_DETAILS = [
  ["grade", "Grade", GRADE_MAX],
  ["set_name", "Set", SET_NAME_MAX],
  ["card_number", "Card number", CARD_NUMBER_MAX],
  ["location", "Location", LOCATION_MAX],
] as const;

/** The card details the row has keys for (an empty cell clears: null), their errors pushed to `errors`. */
function checkDetails(input: ImportRowInput, n: number, errors: string[]): Partial<ImportDetails> {
  const details: Partial<ImportDetails> = {};
  const money = (field: "price" | "cost") => {
    if (input[field] === undefined) return;
    const value = text(input[field]);
    // A JSON number is an amount too (12.5), as a spreadsheet tool may send it.
    const cents = value === "" ? null : parseAmount(value);
    if (cents === undefined) errors.push(csvMessages[field](n));
    else details[field] = cents;
  };
  money("price");
  money("cost");
  if (input.condition !== undefined) {
    const value = text(input.condition);
    const condition = CONDITIONS.find((c) => c.toLowerCase() === value.toLowerCase());
    if (value !== "" && !condition) errors.push(csvMessages.condition(n));
    else details.condition = condition ?? null;
  }
  if (input.grader !== undefined) {
    const value = text(input.grader);
    const grader = GRADERS.find((g) => g.toLowerCase() === value.toLowerCase());
    if (value !== "" && !grader) errors.push(csvMessages.grader(n));
    else details.grader = grader ?? null;
  }
  if (input.reorder_point !== undefined) {
    const value = text(input.reorder_point);
    const point = INTEGER.test(value) ? Number(value) : Number.NaN;
    if (value !== "" && !(point >= 0 && point <= REORDER_POINT_MAX)) errors.push(`Row ${n}: ${REORDER_POINT_MESSAGE}`);
    else details.reorder_point = value === "" ? null : point;
  }
  for (const [field, label, max] of TEXT_DETAILS) {
    if (input[field] === undefined) continue;
    const value = text(input[field]);
    if (value.length > max) errors.push(csvMessages.tooLong(n, label, max));
    else if (/\p{Cc}/u.test(value)) errors.push(`Row ${n}: ${label} must be printable text`);
    else details[field] = value === "" ? null : value;
  }
  return details;
}

/**
 * A checked row as it is sent again (the client checks a file, the server checks what it gets):
 * money back to amounts like the file's ("12.50"), since an import's price and cost are amounts.
 */
export function importInputOf(row: ImportRow): ImportRowInput {
  const amount = (cents: number | null | undefined) => (cents === undefined || cents === null ? cents : centsToAmount(cents));
  const input: ImportRowInput = { ...row };
  if ("price" in row) input.price = amount(row.price);
  if ("cost" in row) input.cost = amount(row.cost);
  return input;
}
