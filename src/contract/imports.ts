import { z } from "zod";
import { IMPORT_JOB_STATUSES } from "./import.js";

/**
 * Imports as durable jobs (docs/decisions/0001-imports-as-durable-jobs.md): every import, one call or
 * staged parts, is stored with its rows, written in short transactions and listed here; an
 * import can be undone.
 */
export const importSummarySchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_JOB_STATUSES),
  user_id: z.number().int().nullable(),
  user_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Rows received (all parts). */
  rows: z.number().int(),
  /** Rows written so far (each exactly once, in file order). */
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  error_count: z.number().int(),
  undone_at: z.string().nullable(),
  undone_by: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

export const IMPORTS_LIMIT_DEFAULT = 20;
export const importsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(IMPORTS_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});

/** A product an undo left as it is, and why. */
export const notRevertedSchema = z.object({
  product_id: z.number().int().nullable(),
  barcode: z.string(),
  product_name: z.string(),
  reason: z.string(),
});
export type NotReverted = z.infer<typeof notRevertedSchema>;

export const importUndoResultSchema = z.object({
  import: importSummarySchema,
  /** Products whose imported fields went back to their values before the import. */
  reverted: z.number().int(),
  /** Products the import created, untouched since, now disabled. */
  disabled: z.number().int(),
  not_reverted: z.array(notRevertedSchema),
});
export type ImportUndoResult = z.infer<typeof importUndoResultSchema>;

/** Why an undo leaves a product or a field alone (the answer's `not_reverted[].reason`). */
export const undoReasons = {
  fieldsChanged: (fields: string[]) => `Changed since the import (${fields.join(", ")}): left as it is`,
  createdChanged: "Created by the import and changed since: left active",
  gone: "No longer exists",
  alreadyDisabled: "Created by the import and already disabled",
} as const;
