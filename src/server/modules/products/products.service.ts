import type { z } from "zod";
import type { createProductBodySchema, Product, quantityChangeBodySchema } from "../../../contract/products.js";
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
import {
  auditedValues,
  emitInventoryUpdate,
  productAuditRow,
  productEventData,
  quantityAuditRow,
  requirePermission,
} from "./product-changes.js";
import { toProduct } from "./products.presenter.js";
import {
  applyQuantityChange,
  barcodeTaken,
  findProductByBarcode,
  findProductById,
  insertProduct,
  listProductsJson,
  lockProductById,
  MAX_ID,
  productsSinceJson,
  readCatalogueRevision,
  setProductActive,
} from "./products.repo.js";

export type CreateProductInput = z.output<typeof createProductBodySchema>;
export type QuantityChangeInput = z.output<typeof quantityChangeBodySchema>;

/** Expired idempotency keys are deleted on roughly one quantity change in this many. */
const CLEANUP_ONE_IN = 100;

/** A catalogue answer: JSON text built by the database, or nothing when the client's copy is current (304). */
export interface CatalogueAnswer {
  /** Every revision up to this one is in the answer (X-Catalogue-Revision). */
  revision: number;
  /** Set only when no change is in flight: the list is then exactly the catalogue at `revision`. */
  etag?: string;
  json?: string;
}

/** Whether an If-None-Match header names `etag` (weak comparison, lists and `*` allowed). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/**
 * GET /api/products: the whole list, or with `since` only the products changed after that
 * revision. The revision is read first, the products in a later statement (see migration 0002).
 */
export async function readCatalogue(ctx: ServiceContext, since?: number, ifNoneMatch?: string): Promise<CatalogueAnswer> {
  const { watermark, latest } = await readCatalogueRevision(ctx.db);
  if (since !== undefined) return { revision: watermark, json: await productsSinceJson(ctx.db, since, watermark) };
  const etag = watermark === latest ? `"${watermark}"` : undefined;
  if (etag && matchesEtag(ifNoneMatch, etag)) return { revision: watermark, etag };
  return { revision: watermark, etag, json: await listProductsJson(ctx.db) };
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
      productAuditRow(ctx, row, "CREATE", { fields: Object.keys(values), oldValues: null, newValues: values }),
    ]);
    if (row.quantityOnHand > 0) await insertQuantityAudit(tx, [quantityAuditRow(ctx, row, 0, "create", "Product created")]);
    const product = toProduct(row);
    afterCommit(() => emitInventoryUpdate(ctx, "product_created", productEventData(product)));
    return product;
  });
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
      productAuditRow(ctx, row, isActive ? "ENABLE" : "DISABLE", {
        fields: ["is_active"],
        oldValues: { is_active: current.isActive },
        newValues: { is_active: row.isActive },
      }),
    ]);
    const product = toProduct(row);
    afterCommit(() => emitInventoryUpdate(ctx, "status_changed", productEventData(product)));
    return product;
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
    const result = await applyChange(ctx, tx, afterCommit, id, input, idempotencyKey);
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
  idempotencyKey: string | undefined,
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
  await insertProductAudit(tx, [
    productAuditRow(ctx, row, delta > 0 ? "QUANTITY_ADD" : "QUANTITY_SUBTRACT", {
      fields: ["quantity_on_hand"],
      oldValues: { quantity_on_hand: before },
      newValues: { quantity_on_hand: row.quantityOnHand },
    }),
  ]);
  await insertQuantityAudit(tx, [quantityAuditRow(ctx, row, before, "adjustment", input.reason || QUANTITY_REASON_DEFAULT)]);
  const product = toProduct(row);
  const extra = idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey };
  afterCommit(() => emitInventoryUpdate(ctx, "quantity_changed", productEventData(product, { quantity_change: delta, ...extra })));
  return { statusCode: 200, body: product };
}
