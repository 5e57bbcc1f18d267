import { checkImportRow, type ImportPreview, type ImportRowInput } from "../../../contract/import.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import { outcomeOf, planBatch, planRows, previewRow, recordFirstRows } from "./import.plan.js";
import { findProductsByBarcodes } from "./import.repo.js";

/**
 * What an import would do, row by row; reads only, writes nothing. The rows are checked, matched
 * and merged (`updated_at`) by the planner every import batch uses (import.plan.ts), against the
 * catalogue as it is now (no lock): the answer is what the import does unless someone changes
 * those products meanwhile. A part of a larger file (`firstRow`) finds duplicates within itself.
 */
export async function previewImport(ctx: ServiceContext, inputs: ImportRowInput[], firstRow = 2): Promise<ImportPreview> {
  requirePermission(ctx, "canManageProducts");
  const checks = inputs.map((input, i) => checkImportRow(input, firstRow + i - 2));
  const firstRows = new Map<string, number>();
  recordFirstRows(firstRows, checks, firstRow);
  const plan = planBatch({ firstRowNumber: firstRow, checks, firstRowOf: (key) => firstRows.get(key) });
  const planned = await planRows(ctx.db, plan, await findProductsByBarcodes(ctx.db, plan.lookUp));
  const { outcome } = outcomeOf(plan.size, planned);
  return {
    created: outcome.created,
    updated: outcome.updated,
    skipped: outcome.skipped,
    errors: outcome.errors.map((e) => e.message),
    rows: planned.map((p) => previewRow(p, inputs[p.row - firstRow])),
  };
}
