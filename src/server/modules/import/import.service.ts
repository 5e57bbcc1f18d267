import type { ImportPreview, ImportResult, ImportRowInput } from "../../../contract/import.js";
import type { ServiceContext } from "../../context.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { emitInventoryUpdate } from "../products/product-changes.js";
import { checkRows, planRows, previewRow, stagedRows, summarise } from "./import.plan.js";
import { applyImportUpdates, findProductsByBarcodes, insertNewProducts, stageImport } from "./import.repo.js";

/** Validates the rows and matches them against the catalogue as it is now (no lock). */
async function planImport(ctx: ServiceContext, inputs: ImportRowInput[], firstRow?: number) {
  const checked = checkRows(inputs, firstRow);
  return planRows(checked, await findProductsByBarcodes(ctx.db, checked.barcodes));
}

/** What an import would do, row by row; reads only, writes nothing. */
export async function previewImport(ctx: ServiceContext, inputs: ImportRowInput[], firstRow?: number): Promise<ImportPreview> {
  requirePermission(ctx, "canManageProducts");
  const plan = await planImport(ctx, inputs, firstRow);
  return { ...summarise(plan), rows: plan.map(previewRow) };
}

/**
 * Imports rows matched by barcode. Validation and the match against a snapshot of the catalogue
 * lock nothing and run first; then one transaction stages the rows to write, creates the new
 * barcodes and, in its last statement, locks and updates the changed products (with their audit
 * rows), so the floor's taps wait for an import's locks only for that statement. A product
 * changed by someone else since the snapshot keeps those changes in the fields the file does not
 * change. Invalid rows are skipped and reported; unchanged rows count as skipped.
 */
export async function importProducts(ctx: ServiceContext, inputs: ImportRowInput[], firstRow?: number): Promise<ImportResult> {
  requirePermission(ctx, "canManageProducts");
  const plan = await planImport(ctx, inputs, firstRow);
  const summary = summarise(plan);
  const staged = stagedRows(plan);
  if (staged.length === 0) return summary;
  const who = { userId: ctx.actor.id, userName: ctx.actor.username, ipAddress: ctx.ip };
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    await stageImport(tx, staged);
    const created = await insertNewProducts(tx, who);
    const updated = await applyImportUpdates(tx, who, created.revision);
    const count = created.count + updated.count;
    const revision = Math.max(created.revision ?? 0, updated.revision ?? 0);
    if (count > 0) afterCommit(() => emitInventoryUpdate(ctx, "products_imported", { count, revision }));
    return { created: created.count, updated: updated.count, skipped: inputs.length - count, errors: summary.errors };
  });
}
