import { PHOTO_MESSAGES, PHOTOS_MAX, type Photo } from "../../../contract/photos.js";
import type { Product } from "../../../contract/products.js";
import { MESSAGES } from "../../../contract/rules.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { insertProductAudit } from "../audit/audit.repo.js";
import { productAuditRow, stockChanged } from "../products/product-changes.js";
import { toProduct } from "../products/products.presenter.js";
import { lockProductById, MAX_ID, type ProductRow } from "../products/products.repo.js";
import { mediaNameOf, mediaUrl, type PhotoFiles } from "./photo-files.js";
import { processPhoto } from "./photo-processing.js";
import { findProductPhotos, nextPhotoId, writeProductPhotos } from "./photos.repo.js";

export interface PhotoAdded {
  photo: Photo;
  product: Product;
  /** False when the product already showed this picture: nothing changed. */
  created: boolean;
}

/**
 * Adds an uploaded picture to a product's photos, last (the first is the cover). The image is
 * processed and its files stored before the transaction (seconds of work hold no lock); the
 * transaction then locks the product, checks it has room, holds the files against a clean-up
 * (photo-files.ts), appends the photo, and writes the audit row. The same picture again on the
 * same product answers the photo it already has. Files stored for an upload that is refused
 * are cleaned up again unless another product shows them.
 */
export async function addPhoto(ctx: ServiceContext, files: PhotoFiles, productId: number, upload: Buffer): Promise<PhotoAdded> {
  requirePermission(ctx, "canManageProducts");
  const known = productId > MAX_ID ? undefined : await findProductPhotos(ctx.db, productId);
  if (!known) throw notFound(MESSAGES.productNotFound);
  if (known.length >= PHOTOS_MAX) throw conflict(PHOTO_MESSAGES.tooMany);
  const processed = await processPhoto(upload);
  const photoFile = await files.store.put(processed.photo.data, "webp");
  const thumbnailFile = await files.store.put(processed.thumbnail.data, "webp");
  const url = mediaUrl(photoFile);
  try {
    return await withTransaction(ctx.db, async (tx, afterCommit) => {
      const current = await lockedProduct(tx, productId);
      const same = current.photos.find((p) => p.url === url);
      if (same) return { photo: same, product: toProduct(current), created: false };
      if (current.photos.length >= PHOTOS_MAX) throw conflict(PHOTO_MESSAGES.tooMany);
      await files.hold(tx, [
        { name: photoFile, data: processed.photo.data },
        { name: thumbnailFile, data: processed.thumbnail.data },
      ]);
      const photo: Photo = {
        id: await nextPhotoId(tx),
        url,
        thumbnail_url: mediaUrl(thumbnailFile),
        width: processed.photo.width,
        height: processed.photo.height,
      };
      const product = await writePhotos(ctx, tx, afterCommit, current, [...current.photos, photo]);
      return { photo, product, created: true };
    });
  } catch (err) {
    await files.release([photoFile, thumbnailFile]);
    throw err;
  }
}

/**
 * Takes a photo off its product; once that has committed, its files are deleted unless another
 * product shows the same picture (an audit entry that still lists it then shows a placeholder).
 */
export async function removePhoto(ctx: ServiceContext, files: PhotoFiles, productId: number, photoId: number): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  const { product, removed } = await withTransaction(ctx.db, async (tx, afterCommit) => {
    const current = await lockedProduct(tx, productId);
    const removed = current.photos.find((p) => p.id === photoId);
    if (!removed) throw notFound(PHOTO_MESSAGES.photoNotFound);
    const product = await writePhotos(
      ctx,
      tx,
      afterCommit,
      current,
      current.photos.filter((p) => p.id !== photoId),
    );
    return { product, removed };
  });
  await files.release([removed.url, removed.thumbnail_url].flatMap((u) => mediaNameOf(u) ?? []));
  return product;
}

/** Puts a product's photos in the given order (each of its photo ids once); the first becomes the cover. */
export async function reorderPhotos(ctx: ServiceContext, productId: number, order: number[]): Promise<Product> {
  requirePermission(ctx, "canManageProducts");
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const current = await lockedProduct(tx, productId);
    const byId = new Map(current.photos.map((p) => [p.id, p]));
    const reordered = order.map((id) => byId.get(id));
    if (new Set(order).size !== order.length || order.length !== current.photos.length || reordered.some((p) => p === undefined)) {
      throw badRequest(PHOTO_MESSAGES.orderMismatch);
    }
    if (order.every((id, i) => current.photos[i]?.id === id)) return toProduct(current);
    return writePhotos(ctx, tx, afterCommit, current, reordered as Photo[]);
  });
}

async function lockedProduct(tx: Db, productId: number): Promise<ProductRow> {
  const row = productId > MAX_ID ? undefined : await lockProductById(tx, productId);
  if (!row) throw notFound(MESSAGES.productNotFound);
  return row;
}

/**
 * Writes the new list, its product audit entry (UPDATE of `photos`, with the lists before and
 * after, so the audit shows which pictures came and went), and the live event after the commit.
 */
async function writePhotos(ctx: ServiceContext, tx: Db, afterCommit: AfterCommit, current: ProductRow, photos: Photo[]): Promise<Product> {
  const row = await writeProductPhotos(tx, current.id, photos);
  await insertProductAudit(tx, [
    productAuditRow(ctx, row, "UPDATE", { fields: ["photos"], oldValues: { photos: current.photos }, newValues: { photos: row.photos } }),
  ]);
  const product = toProduct(row);
  afterCommit(() => stockChanged(ctx, { type: "product_updated", products: [{ product }] }));
  return product;
}
