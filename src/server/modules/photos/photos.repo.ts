import { eq, sql } from "drizzle-orm";
import type { Photo } from "../../../contract/photos.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import type { ProductRow } from "../products/products.repo.js";

/** A product's photos, or undefined when there is no such product (a check before an upload is processed). */
export async function findProductPhotos(db: Db, id: number): Promise<Photo[] | undefined> {
  const [row] = await db.select({ photos: products.photos }).from(products).where(eq(products.id, id)).limit(1);
  return row?.photos;
}

/** A new photo id from product_photo_seq (migration 0009): never the same twice, also across processes. */
export async function nextPhotoId(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(await db.execute(sql`select nextval('product_photo_seq') as n`));
  if (!row) throw new Error("photo id: no answer");
  return Number(row.n);
}

/**
 * Writes a product's photo list (on the row locked by the caller): a change like any other, so a
 * new version and a new revision, and every screen catches up by revision.
 */
export async function writeProductPhotos(tx: Db, id: number, photos: Photo[]): Promise<ProductRow> {
  const [row] = await tx
    .update(products)
    .set({ photos, version: sql`${products.version} + 1`, revision: sql`take_revision()`, updatedAt: sql`now()` })
    .where(eq(products.id, id))
    .returning();
  if (!row) throw new Error("product photos update returned nothing");
  return row;
}
