import type { ImportPreview, ImportRowInput } from "../../../contract/import.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import { checkRows, planRows, previewRow, summarise } from "./import.plan.js";
import { findProductsByBarcodes } from "./import.repo.js";

/**
 * What an import would do, row by row; reads only, writes nothing. Validation and the match run
 * against the catalogue as it is now (no lock). Imports themselves are durable jobs (import-jobs.ts).
 */
export async function previewImport(ctx: ServiceContext, inputs: ImportRowInput[], firstRow?: number): Promise<ImportPreview> {
  requirePermission(ctx, "canManageProducts");
  const checked = checkRows(inputs, firstRow);
  const plan = planRows(checked, await findProductsByBarcodes(ctx.db, checked.barcodes));
  return { ...summarise(plan), rows: plan.map(previewRow) };
}
