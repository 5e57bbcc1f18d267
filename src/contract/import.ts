import { z } from "zod";
import {
  BARCODE_MAX,
  CSV_BARCODE_MIN,
  CSV_IS_ACTIVE_VALUES,
  CSV_TRUE_VALUES,
  csvMessages,
  NAME_MAX,
  QUANTITY_MAX_EXCLUSIVE,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
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
});
export type ImportRowInput = z.infer<typeof importRowInputSchema>;

export const IMPORT_MAX_ROWS = 50_000;
/** Rows per call when a file is sent in parts: each part answers well within the 10 s every call gets. */
export const IMPORT_PART_ROWS = 5_000;
/** Rows one staged import (all its parts) may hold. */
export const IMPORT_JOB_MAX_ROWS = 500_000;
export const importBodySchema = z.object({
  products: z.array(importRowInputSchema).max(IMPORT_MAX_ROWS, `At most ${IMPORT_MAX_ROWS} rows per import`),
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
});
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * A file larger than one part: its parts are staged on the server, then committed together in
 * one transaction (all or nothing), which runs after the commit call answers; its outcome is read
 * with GET. Every call answers within seconds.
 */
export const IMPORT_JOB_STATUSES = ["staging", "committing", "done", "failed"] as const;
export const importJobSchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_JOB_STATUSES),
  /** Rows staged so far. */
  received: z.number().int(),
  result: importResultSchema.optional(),
  error: z.string().optional(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
export const importJobParamsSchema = z.object({ id: z.string().uuid() });
export const importPartParamsSchema = importJobParamsSchema.extend({ part: z.coerce.number().int().min(0).max(10_000) });
export const importPartBodySchema = z.object({
  products: z.array(importRowInputSchema).max(IMPORT_MAX_ROWS, `At most ${IMPORT_MAX_ROWS} rows per part`),
});

export const IMPORT_FIELDS = ["product_name", "vendor", "release_year", "quantity_on_hand", "is_active"] as const;
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

/** A valid row, normalised the way the spec's import does it. */
export interface ImportRow {
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: number | null;
  quantity_on_hand: number;
  is_active: boolean;
}

export type RowCheck = { ok: true; row: ImportRow } | { ok: false; errors: string[] };

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v).trim());
const INTEGER = /^[+]?\d+$/;
const SIGNED_INTEGER = /^[+-]?\d+$/;

/**
 * The spec's CSV row rules (section 5) plus the server's length limits.
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
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    row: {
      barcode,
      product_name,
      vendor,
      release_year,
      quantity_on_hand: quantity,
      is_active: activeText === "" || (CSV_TRUE_VALUES as readonly string[]).includes(activeText),
    },
  };
}
