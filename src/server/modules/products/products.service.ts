import { createHash } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { createProductBodySchema, Product, quantityChangeBodySchema } from "../../../contract/products.js";
import { MESSAGES, QUANTITY_MAX_EXCLUSIVE, QUANTITY_REASON_DEFAULT, SHOP_CODE_PREFIX, STOCK_MOVED } from "../../../contract/rules.js";
import { SHOW_MESSAGES } from "../../../contract/show-rules.js";
import { AppError, badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import { insertProductAudit, insertQuantityAudit } from "../audit/audit.repo.js";
import type { CatalogueCache, CatalogueSnapshot, CatalogueSource } from "./catalogue-cache.js";
import { CatalogueMirror } from "./catalogue-mirror.js";
import { deleteExpiredIdempotencyKeys } from "./idempotency.repo.js";
import type { JsonParts } from "./json-parts.js";
import { createdValues, productAuditRow, quantityAuditRow, requirePermission, stockChanged } from "./product-changes.js";
import { toProduct } from "./products.presenter.js";
import {
  applyQuantityChange,
  barcodeTaken,
  countProductsChangedSince,
  findProductJsonByBarcode,
  insertProduct,
  lockProductById,
  MAX_ID,
  nextShopCodeNumber,
  productsSharingGtin,
  type QuantityRefusal,
  readCatalogueRevision,
  setProductActive,
} from "./products.repo.js";

export type CreateProductInput = z.output<typeof createProductBodySchema>;
export type QuantityChangeInput = z.output<typeof quantityChangeBodySchema>;

/** Expired idempotency keys are deleted on roughly one quantity change in this many. */
const CLEANUP_ONE_IN = 100;

/** A catalogue answer: a list snapshot, the JSON text of a catch-up, or nothing when the client's copy is current (304). */
export interface CatalogueAnswer {
  /** Every revision up to this one is in the answer (X-Catalogue-Revision). */
  revision: number;
  /** Set only when no change was in flight: the list is then exactly the catalogue at `revision`. */
  etag?: string;
  list?: CatalogueSnapshot;
  since?: JsonParts;
  /** With `limit`: the list's first products, a JSON array. */
  first?: JsonParts;
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
 * Where the catalogue's answers come from: the catalogue mirrored in memory (the watermark read
 * first, the changes in later statements, migration 0002), caught up for every list and `since`.
 */
export function catalogueSource(db: Db, mirror = new CatalogueMirror(db)): CatalogueSource {
  return {
    watermark: async () => (await readCatalogueRevision(db)).watermark,
    async build() {
      const { revision, items, text } = await mirror.list();
      return { revision: revision.watermark, exact: revision.watermark === revision.latest, items, text };
    },
    since: (since) => mirror.since(since),
    first: (limit) => mirror.first(limit),
    changedSince: (revision, limit) => countProductsChangedSince(db, revision, limit),
    catchUp: () => mirror.catchUp(),
  };
}

export interface CatalogueQuery {
  since?: number;
  /** The client catches up with ?since= afterwards: a snapshot a few changes behind will do. */
  catchUp?: boolean;
  /** Only the list's first `limit` products (a first screenful; not with `since`). */
  limit?: number;
  ifNoneMatch?: string;
}

/**
 * GET /api/products: the whole list, or with `since` only the products changed after that
 * revision. The spec's plain list is exact (the shared snapshot only when nothing changed since
 * it); a client that catches up gets the shared snapshot while it is not far behind.
 */
export async function readCatalogue(ctx: ServiceContext, catalogue: CatalogueCache, query: CatalogueQuery): Promise<CatalogueAnswer> {
  if (query.limit !== undefined) {
    if (query.since !== undefined) throw badRequest("limit cannot be combined with since");
    const first = await catalogue.first(query.limit);
    return { revision: first.revision, first: first.json };
  }
  if (query.since !== undefined) {
    const changed = await catalogue.since(query.since);
    return { revision: changed.revision, since: changed.json };
  }
  // A catch-up while the snapshot is kept warm and was recently found close enough: no statement
  // (on the embedded database it would wait behind a build).
  let list = query.catchUp ? catalogue.recent() : null;
  if (!list) {
    const { watermark, latest } = await readCatalogueRevision(ctx.db);
    // The plain list: the snapshot when it is exactly the catalogue now, else the build in progress
    // or a new one (one build at a time, shared with the background ones).
    list = query.catchUp ? await catalogue.get(watermark) : await catalogue.fresh(latest);
  }
  if (list.etag && matchesEtag(query.ifNoneMatch, list.etag)) return { revision: list.revision, etag: list.etag };
  return { revision: list.revision, etag: list.etag, list };
}

/**
 * Logs the products that share their GTIN with an older product (migration 0005 left them
 * without a key: found only by their exact barcode), so a manager can merge or fix them.
 */
export async function reportSharedGtins(db: ServiceContext["db"], log: Pick<FastifyBaseLogger, "warn">): Promise<number> {
  const shared = await productsSharingGtin(db);
  for (const p of shared) {
    log.warn(
      { productId: p.id, barcode: p.barcode, sameGtinAs: p.ownerId, otherBarcode: p.ownerBarcode },
      `product ${p.id} (barcode ${p.barcode}) is the same GTIN as product ${p.ownerId} (barcode ${p.ownerBarcode}): ` +
        "it is found only by this exact barcode (other forms of the GTIN find the other); edit one of the barcodes to tell them apart",
    );
  }
  return shared.length;
}

/** A product by barcode (or another form of its GTIN), active or not, as the JSON text of the answer. */
export async function getProductJsonByBarcode(ctx: ServiceContext, barcode: string): Promise<string> {
  const json = await findProductJsonByBarcode(ctx.db, barcode.trim());
  if (json === undefined) throw notFound(MESSAGES.productNotFound);
  return json;
}

export async function createProduct(ctx: ServiceContext, input: CreateProductInput): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  return withTransaction(ctx.db, (tx, afterCommit) => createProductIn(ctx, tx, afterCommit, input));
}

/**
 * The one way a product is created (409 when its barcode, or another form of its GTIN, exists),
 * inside the caller's transaction: the counter creates a card from a feed's printing with its
 * market ids and price in the same one. The caller checks the permission.
 */
export async function createProductIn(ctx: ServiceContext, tx: Db, afterCommit: AfterCommit, input: CreateProductInput): Promise<Product> {
  if (await barcodeTaken(tx, input.barcode)) throw conflict(MESSAGES.barcodeExists);
  const row = await insertProduct(tx, {
    barcode: input.barcode,
    productName: input.product_name,
    vendor: input.vendor,
    releaseYear: input.release_year,
    quantityOnHand: input.quantity_on_hand,
    price: input.price,
    cost: input.cost,
    condition: input.condition,
    grader: input.grader,
    grade: input.grade,
    setName: input.set_name,
    cardNumber: input.card_number,
    location: input.location,
    reorderPoint: input.reorder_point,
  });
  const values = createdValues(row);
  await insertProductAudit(tx, [productAuditRow(ctx, row, "CREATE", { fields: Object.keys(values), oldValues: null, newValues: values })]);
  if (row.quantityOnHand > 0) await insertQuantityAudit(tx, [quantityAuditRow(ctx, row, 0, "create", "Product created")]);
  const product = toProduct(row);
  afterCommit(() => stockChanged(ctx, { type: "product_created", products: [{ product }] }));
  return product;
}

/** A shop code (SC-000123) no product has: the next number of a sequence, skipping codes typed in by hand. */
export async function newShopCode(ctx: ServiceContext): Promise<string> {
  requirePermission(ctx, "canManageProducts");
  for (;;) {
    const code = `${SHOP_CODE_PREFIX}${String(await nextShopCodeNumber(ctx.db)).padStart(6, "0")}`;
    if (!(await barcodeTaken(ctx.db, code))) return code;
  }
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
    afterCommit(() => stockChanged(ctx, { type: "status_changed", products: [{ product }] }));
    return product;
  });
}

/** The answer a quantity refusal gets (stored by code, so a replay answers the same words). */
const REFUSALS: Record<QuantityRefusal, { status: number; error: string }> = {
  not_found: { status: 404, error: MESSAGES.productNotFound },
  disabled: { status: 409, error: MESSAGES.productDisabled },
  stock_moved: { status: 409, error: STOCK_MOVED },
  insufficient_stock: { status: 409, error: MESSAGES.insufficientStock },
  stock_limit: { status: 409, error: `Stock cannot reach ${QUANTITY_MAX_EXCLUSIVE.toLocaleString("en-US")}` },
  key_reused: { status: 422, error: MESSAGES.idempotencyKeyReused },
  show_not_found: { status: 404, error: SHOW_MESSAGES.notFound },
  show_not_yours: { status: 403, error: SHOW_MESSAGES.notYours },
};

/** What an Idempotency-Key is bound to: the method, the path and the (validated) body. */
function requestHash(id: number, input: QuantityChangeInput): string {
  const request = JSON.stringify([
    "PUT",
    `/api/products/${id}/quantity`,
    input.quantity_change,
    input.reason,
    input.expected_quantity ?? null,
    // Only when sent: keys stored before shows existed keep matching their requests.
    ...(input.show_id === undefined ? [] : [input.show_id]),
  ]);
  return createHash("sha256").update(request).digest("hex");
}

/**
 * Keys are kept per user; an API token acts as the user who created it (docs/decisions/0009), so
 * its keys get a space of their own: two integrations of one manager never share a key.
 */
function storedKey(ctx: ServiceContext, key: string): string {
  return ctx.actor.token ? `token:${ctx.actor.token.id}:${key}` : key;
}

/**
 * A stock change in one statement (products.repo applyQuantityChange). With an Idempotency-Key,
 * the first answer (success or refusal) is stored with the change and every repeat of the same
 * request by the same user gets it back without changing anything; the same key on another
 * request is refused with 422.
 */
export async function changeQuantity(
  ctx: ServiceContext,
  id: number,
  input: QuantityChangeInput,
  idempotencyKey?: string,
): Promise<Product> {
  requirePermission(ctx, "canUpdateQuantity");
  const delta = input.quantity_change;
  const answer = await applyQuantityChange(ctx.db, {
    productId: id <= MAX_ID ? id : undefined,
    delta,
    expected: input.expected_quantity,
    showId: input.show_id,
    reason: input.reason || QUANTITY_REASON_DEFAULT,
    userId: ctx.actor.id,
    userName: ctx.actor.username,
    ip: ctx.ip,
    key: idempotencyKey === undefined ? undefined : { key: storedKey(ctx, idempotencyKey), requestHash: requestHash(id, input) },
  });
  if (idempotencyKey !== undefined && Math.random() * CLEANUP_ONE_IN < 1) {
    void deleteExpiredIdempotencyKeys(ctx.db).catch(() => {});
  }
  const { body } = answer;
  if ("refusal" in body) {
    const refusal = REFUSALS[body.refusal];
    throw new AppError(refusal.status, refusal.error);
  }
  // Answers stored before migration 0003 carry their message.
  if ("error" in body) throw new AppError(answer.status, body.error);
  if (!answer.replayed) {
    // Committed: the statement is its own transaction. A tap moves the stock by `delta`, never the point.
    const extra = idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey };
    const before = { quantity: body.quantity_on_hand - delta, reorderPoint: body.reorder_point ?? null };
    stockChanged(ctx, { type: "quantity_changed", products: [{ product: body, before, extra: { quantity_change: delta, ...extra } }] });
  }
  return body;
}
