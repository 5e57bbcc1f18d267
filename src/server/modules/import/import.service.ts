import type { ImportPreview, ImportResult, ImportRowInput } from "../../../contract/import.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import type { ProductAuditInsert, QuantityAuditInsert } from "../audit/audit.repo.js";
import { emitInventoryUpdate, requirePermission } from "../products/product-changes.js";
import { checkRows, importedValues, type PlannedRow, planRows, previewRow, summarise } from "./import.plan.js";
import { findProductsByBarcodes, insertImportAudit, insertProducts, updateProducts } from "./import.repo.js";

const IMPORT_NOTE = "CSV import";

/** What an import would do, row by row; reads only, writes nothing. */
export async function previewImport(ctx: ServiceContext, inputs: ImportRowInput[]): Promise<ImportPreview> {
  requirePermission(ctx, "canManageProducts");
  const checked = checkRows(inputs);
  const plan = planRows(checked, await findProductsByBarcodes(ctx.db, checked.barcodes, false));
  return { ...summarise(plan), rows: plan.map(previewRow) };
}

/**
 * Imports rows matched by barcode, all in one transaction with set-based statements: one lookup,
 * one insert for the new products, one update for the changed ones, audit rows in bulk.
 * Invalid rows are skipped and reported; unchanged rows count as skipped.
 */
export async function importProducts(ctx: ServiceContext, inputs: ImportRowInput[]): Promise<ImportResult> {
  requirePermission(ctx, "canManageProducts");
  const checked = checkRows(inputs);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const plan = planRows(checked, await findProductsByBarcodes(tx, checked.barcodes, true));
    const summary = summarise(plan);
    await writePlan(ctx, tx, plan);
    const count = summary.created + summary.updated;
    if (count > 0) afterCommit(() => emitInventoryUpdate(ctx, "products_imported", { count }));
    return summary;
  });
}

async function writePlan(ctx: ServiceContext, tx: Db, plan: PlannedRow[]): Promise<void> {
  const creates = plan.flatMap((p) => (p.action === "create" ? [p] : []));
  const updates = plan.flatMap((p) => (p.action === "update" ? [p] : []));
  const ids = await insertProducts(
    tx,
    creates.map((p) => p.values),
  );
  const written = await updateProducts(
    tx,
    updates.map((p) => ({ ...p.values, id: p.current.id })),
  );
  if (ids.size !== creates.length || written !== updates.length) throw new Error("import wrote a different number of rows than planned");

  const who = { userId: ctx.actor.id, userName: ctx.actor.username };
  const productAudit: ProductAuditInsert[] = [];
  const quantityAudit: QuantityAuditInsert[] = [];
  for (const p of creates) {
    const productId = ids.get(p.values.barcode) as number;
    const values = importedValues(p.values);
    const target = { productId, productName: p.values.product_name, barcode: p.values.barcode };
    productAudit.push({
      ...target,
      action: "CREATE",
      ...who,
      changedFields: Object.keys(values),
      oldValues: null,
      newValues: values,
      ipAddress: ctx.ip,
    });
    if (p.values.quantity_on_hand > 0) {
      quantityAudit.push({
        ...target,
        quantityChange: p.values.quantity_on_hand,
        quantityBefore: 0,
        quantityAfter: p.values.quantity_on_hand,
        transactionType: "import",
        notes: IMPORT_NOTE,
        ...who,
      });
    }
  }
  for (const p of updates) {
    const target = { productId: p.current.id, productName: p.values.product_name, barcode: p.values.barcode };
    productAudit.push({
      ...target,
      action: "UPDATE",
      ...who,
      changedFields: p.changes.fields,
      oldValues: p.changes.oldValues,
      newValues: p.changes.newValues,
      ipAddress: ctx.ip,
    });
    if (p.values.quantity_on_hand !== p.current.quantityOnHand) {
      quantityAudit.push({
        ...target,
        quantityChange: p.values.quantity_on_hand - p.current.quantityOnHand,
        quantityBefore: p.current.quantityOnHand,
        quantityAfter: p.values.quantity_on_hand,
        transactionType: "import",
        notes: IMPORT_NOTE,
        ...who,
      });
    }
  }
  await insertImportAudit(tx, productAudit, quantityAudit);
}
