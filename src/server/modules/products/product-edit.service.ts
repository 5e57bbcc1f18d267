import type { z } from "zod";
import type { Product, updateProductBodySchema } from "../../../contract/products.js";
import { EDITABLE_FIELDS, type EditableField, MESSAGES } from "../../../contract/rules.js";
import { conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { changesSinceVersion, insertProductAudit, insertQuantityAudit } from "../audit/audit.repo.js";
import { auditedValues, FIELD_COLUMNS, productAuditRow, quantityAuditRow, stockChanged } from "./product-changes.js";
import { toProduct } from "./products.presenter.js";
import { barcodeTaken, lockProductById, MAX_ID, type ProductRow, updateProduct as writeEdit } from "./products.repo.js";

export type UpdateProductInput = z.output<typeof updateProductBodySchema>;

/** How an edit merges with changes made since it was opened, as the OpenAPI description of PUT /api/products/{id} says. */
export const EDIT_RULES =
  "Accepts any non-empty subset of the editable fields; fields left out do not change. With `version` and the " +
  "product changed since: when none of the sent fields changed since that version the edit applies (200); " +
  'otherwise 409 `{error: "This product was changed by someone else", product: <current>, fields: [names of the ' +
  "sent fields that changed meanwhile]}` and nothing changes. A sent field equal to its current value changes " +
  "nothing, so it never conflicts. Stock taps count as changes of quantity_on_hand, disabling or enabling as " +
  "changes of is_active.";

/**
 * An edit that merges: only the sent fields that differ from the product are written. With a
 * stale `version`, it is refused (409, nothing changes) when one of those fields changed since.
 */
export async function updateProduct(ctx: ServiceContext, id: number, input: UpdateProductInput): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  if (id > MAX_ID) throw notFound(MESSAGES.productNotFound);
  return withTransaction(ctx.db, (tx, afterCommit) => updateProductIn(ctx, tx, afterCommit, id, input));
}

/**
 * The one way a product is edited (updateProduct's body: audited, live events and webhooks, its
 * version and revision moved), inside the caller's transaction: a stock take moves a misplaced
 * product to where it was found in the same one as it settles the line. The caller checks the
 * permission.
 */
export async function updateProductIn(
  ctx: ServiceContext,
  tx: Db,
  afterCommit: AfterCommit,
  id: number,
  input: UpdateProductInput,
): Promise<Product> {
  const current = await lockProductById(tx, id);
  if (!current) throw notFound(MESSAGES.productNotFound);
  const before = auditedValues(current);
  const fields = EDITABLE_FIELDS.filter((f) => input[f] !== undefined && input[f] !== before[f]);
  if (fields.length === 0) return toProduct(current);
  if (input.version !== undefined && input.version !== current.version) {
    const lost = await changedSince(tx, current, input.version, fields);
    if (lost.length > 0) throw conflict(MESSAGES.versionConflict, { product: toProduct(current), fields: lost });
  }
  if (input.barcode !== undefined && fields.includes("barcode") && (await barcodeTaken(tx, input.barcode, id))) {
    throw conflict(MESSAGES.barcodeExists);
  }

  const row = await writeEdit(tx, id, Object.fromEntries(fields.map((f) => [FIELD_COLUMNS[f], input[f]])));
  const after = auditedValues(row);
  await insertProductAudit(tx, [
    productAuditRow(ctx, row, "UPDATE", {
      fields,
      oldValues: Object.fromEntries(fields.map((f) => [f, before[f]])),
      newValues: Object.fromEntries(fields.map((f) => [f, after[f]])),
    }),
  ]);
  const quantityChange = row.quantityOnHand - current.quantityOnHand;
  if (quantityChange !== 0) await insertQuantityAudit(tx, [quantityAuditRow(ctx, row, current.quantityOnHand, "edit", "Product edited")]);
  const product = toProduct(row);
  const extra = quantityChange !== 0 ? { quantity_change: quantityChange } : {};
  const level = { quantity: current.quantityOnHand, reorderPoint: current.reorderPoint };
  afterCommit(() => stockChanged(ctx, { type: "product_updated", products: [{ product, before: level, extra }] }));
  return product;
}

/**
 * Which of `fields` changed after `version`, from the audit rows that recorded each version.
 * Every change adds one version and one audit row; when fewer rows are found than versions
 * passed (history from before migration 0002), every field counts as changed.
 */
async function changedSince(tx: Db, current: ProductRow, version: number, fields: EditableField[]): Promise<EditableField[]> {
  const since = await changesSinceVersion(tx, current.id, version);
  const complete = since.changes >= current.version - version;
  return fields.filter((f) => !complete || since.fields.includes(f));
}
