import type { z } from "zod";
import type { createProductBodySchema, Product, quantityChangeBodySchema, updateProductBodySchema } from "../../../contract/products.js";
import { QUANTITY_REASON_DEFAULT } from "../../../contract/products.js";
import { MESSAGES, QUANTITY_MAX_EXCLUSIVE } from "../../../contract/rules.js";
import { AppError, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import { insertProductAudit, insertQuantityAudit } from "../audit/audit.repo.js";
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  findIdempotentAnswer,
  type StoredAnswer,
  saveIdempotentAnswer,
} from "./idempotency.repo.js";
import { auditedValues, diffValues, emitInventoryUpdate, requirePermission } from "./product-changes.js";
import {
  applyQuantityChange,
  barcodeTaken,
  findProductByBarcode,
  findProductById,
  insertProduct,
  listProducts as listProductRows,
  lockProductById,
  MAX_ID,
  setProductActive,
  toProduct,
  updateProduct as updateProductRow,
} from "./products.repo.js";

export type CreateProductInput = z.output<typeof createProductBodySchema>;
export type UpdateProductInput = z.output<typeof updateProductBodySchema>;
export type QuantityChangeInput = z.output<typeof quantityChangeBodySchema>;

/** Expired idempotency keys are deleted on roughly one quantity change in this many. */
const CLEANUP_ONE_IN = 100;

const actorFields = (ctx: ServiceContext) => ({ userId: ctx.actor.id, userName: ctx.actor.username });

export async function listProducts(ctx: ServiceContext): Promise<Product[]> {
  return listProductRows(ctx.db);
}

/** A product by barcode, active or not. */
export async function getProductByBarcode(ctx: ServiceContext, barcode: string): Promise<Product> {
  const row = await findProductByBarcode(ctx.db, barcode.trim());
  if (!row) throw notFound(MESSAGES.productNotFound);
  return toProduct(row);
}

export async function createProduct(ctx: ServiceContext, input: CreateProductInput): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    if (await barcodeTaken(tx, input.barcode)) throw conflict(MESSAGES.barcodeExists);
    const row = await insertProduct(tx, {
      barcode: input.barcode,
      productName: input.product_name,
      vendor: input.vendor,
      releaseYear: input.release_year,
      quantityOnHand: input.quantity_on_hand,
    });
    const values = auditedValues(row);
    await insertProductAudit(tx, [
      {
        productId: row.id,
        productName: row.productName,
        barcode: row.barcode,
        action: "CREATE",
        ...actorFields(ctx),
        changedFields: Object.keys(values),
        oldValues: null,
        newValues: values,
        ipAddress: ctx.ip,
      },
    ]);
    if (row.quantityOnHand > 0) {
      await insertQuantityAudit(tx, [
        {
          productId: row.id,
          productName: row.productName,
          barcode: row.barcode,
          quantityChange: row.quantityOnHand,
          quantityBefore: 0,
          quantityAfter: row.quantityOnHand,
          transactionType: "create",
          notes: "Product created",
          ...actorFields(ctx),
        },
      ]);
    }
    afterCommit(() =>
      emitInventoryUpdate(ctx, "product_created", {
        id: row.id,
        product_name: row.productName,
        quantity_on_hand: row.quantityOnHand,
        is_active: row.isActive,
      }),
    );
    return toProduct(row);
  });
}

/** An edit; with `version`, a stale edit is refused (409 with the current product) and changes nothing. */
export async function updateProduct(ctx: ServiceContext, id: number, input: UpdateProductInput): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  if (id > MAX_ID) throw notFound(MESSAGES.productNotFound);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const current = await lockProductById(tx, id);
    if (!current) throw notFound(MESSAGES.productNotFound);
    if (input.version !== undefined && input.version !== current.version) {
      throw conflict(MESSAGES.versionConflict, { product: toProduct(current) });
    }
    const before = auditedValues(current);
    const changes = diffValues(before, { ...before, ...pickEditable(input) });
    if (changes.fields.length === 0) return toProduct(current);
    if (changes.fields.includes("barcode") && (await barcodeTaken(tx, input.barcode, id))) throw conflict(MESSAGES.barcodeExists);

    const row = await updateProductRow(tx, id, {
      barcode: input.barcode,
      productName: input.product_name,
      vendor: input.vendor,
      releaseYear: input.release_year,
      quantityOnHand: input.quantity_on_hand,
    });
    await insertProductAudit(tx, [
      {
        productId: row.id,
        productName: row.productName,
        barcode: row.barcode,
        action: "UPDATE",
        ...actorFields(ctx),
        changedFields: changes.fields,
        oldValues: changes.oldValues,
        newValues: changes.newValues,
        ipAddress: ctx.ip,
      },
    ]);
    if (row.quantityOnHand !== current.quantityOnHand) {
      await insertQuantityAudit(tx, [
        {
          productId: row.id,
          productName: row.productName,
          barcode: row.barcode,
          quantityChange: row.quantityOnHand - current.quantityOnHand,
          quantityBefore: current.quantityOnHand,
          quantityAfter: row.quantityOnHand,
          transactionType: "edit",
          notes: "Product edited",
          ...actorFields(ctx),
        },
      ]);
    }
    afterCommit(() =>
      emitInventoryUpdate(ctx, "product_updated", {
        id: row.id,
        product_name: row.productName,
        quantity_on_hand: row.quantityOnHand,
        is_active: row.isActive,
        ...(row.quantityOnHand !== current.quantityOnHand ? { quantity_change: row.quantityOnHand - current.quantityOnHand } : {}),
      }),
    );
    return toProduct(row);
  });
}

function pickEditable(input: UpdateProductInput) {
  return {
    barcode: input.barcode,
    product_name: input.product_name,
    vendor: input.vendor,
    release_year: input.release_year,
    quantity_on_hand: input.quantity_on_hand,
  };
}

/** Disable or enable. Setting the state a product already has changes nothing. */
export async function setProductStatus(ctx: ServiceContext, id: number, isActive: boolean): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  if (id > MAX_ID) throw notFound(MESSAGES.productNotFound);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const current = await lockProductById(tx, id);
    if (!current) throw notFound(MESSAGES.productNotFound);
    if (current.isActive === isActive) return toProduct(current);
    const row = await setProductActive(tx, id, isActive);
    await insertProductAudit(tx, [
      {
        productId: row.id,
        productName: row.productName,
        barcode: row.barcode,
        action: isActive ? "ENABLE" : "DISABLE",
        ...actorFields(ctx),
        changedFields: ["is_active"],
        oldValues: { is_active: current.isActive },
        newValues: { is_active: row.isActive },
        ipAddress: ctx.ip,
      },
    ]);
    afterCommit(() => emitInventoryUpdate(ctx, "status_changed", { id: row.id, product_name: row.productName, is_active: row.isActive }));
    return toProduct(row);
  });
}

/**
 * A stock change: one conditional UPDATE, never read-then-write. With an Idempotency-Key, the
 * first answer (success or refusal) is stored in the same transaction and every repeat by the
 * same user gets it back without changing anything.
 */
export async function changeQuantity(
  ctx: ServiceContext,
  id: number,
  input: QuantityChangeInput,
  idempotencyKey?: string,
): Promise<Product> {
  requirePermission(ctx, "canUpdateQuantity");
  const answer = await withTransaction(ctx.db, async (tx, afterCommit): Promise<StoredAnswer> => {
    if (idempotencyKey !== undefined) {
      const owned = await claimIdempotencyKey(tx, ctx.actor.id, idempotencyKey);
      if (!owned) {
        const stored = await findIdempotentAnswer(tx, ctx.actor.id, idempotencyKey);
        if (stored) return stored;
      }
    }
    const result = await applyChange(ctx, tx, afterCommit, id, input);
    if (idempotencyKey !== undefined) await saveIdempotentAnswer(tx, ctx.actor.id, idempotencyKey, result);
    return result;
  });
  if (idempotencyKey !== undefined && Math.random() * CLEANUP_ONE_IN < 1) {
    await deleteExpiredIdempotencyKeys(ctx.db).catch(() => {});
  }
  if (answer.statusCode >= 400) {
    const { error, ...extra } = answer.body as { error: string };
    throw new AppError(answer.statusCode, error, extra);
  }
  return answer.body as Product;
}

const refusal = (statusCode: number, error: string): StoredAnswer => ({ statusCode, body: { error } });

async function applyChange(
  ctx: ServiceContext,
  tx: Db,
  afterCommit: AfterCommit,
  id: number,
  input: QuantityChangeInput,
): Promise<StoredAnswer> {
  const delta = input.quantity_change;
  const row = id <= MAX_ID ? await applyQuantityChange(tx, id, delta) : undefined;
  if (!row) {
    const current = id <= MAX_ID ? await findProductById(tx, id) : undefined;
    if (!current) return refusal(404, MESSAGES.productNotFound);
    if (!current.isActive) return refusal(409, MESSAGES.productDisabled);
    if (current.quantityOnHand + delta < 0) return refusal(409, MESSAGES.insufficientStock);
    return refusal(409, `Stock cannot reach ${QUANTITY_MAX_EXCLUSIVE.toLocaleString("en-US")}`);
  }
  const before = row.quantityOnHand - delta;
  const reason = input.reason || QUANTITY_REASON_DEFAULT;
  await insertProductAudit(tx, [
    {
      productId: row.id,
      productName: row.productName,
      barcode: row.barcode,
      action: delta > 0 ? "QUANTITY_ADD" : "QUANTITY_SUBTRACT",
      ...actorFields(ctx),
      changedFields: ["quantity_on_hand"],
      oldValues: { quantity_on_hand: before },
      newValues: { quantity_on_hand: row.quantityOnHand },
      ipAddress: ctx.ip,
    },
  ]);
  await insertQuantityAudit(tx, [
    {
      productId: row.id,
      productName: row.productName,
      barcode: row.barcode,
      quantityChange: delta,
      quantityBefore: before,
      quantityAfter: row.quantityOnHand,
      transactionType: "adjustment",
      notes: reason,
      ...actorFields(ctx),
    },
  ]);
  afterCommit(() =>
    emitInventoryUpdate(ctx, "quantity_changed", {
      id: row.id,
      product_name: row.productName,
      quantity_change: delta,
      quantity_on_hand: row.quantityOnHand,
      is_active: row.isActive,
    }),
  );
  return { statusCode: 200, body: toProduct(row) };
}
