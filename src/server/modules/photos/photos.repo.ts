import { eq, sql } from "drizzle-orm";
import type { Photo } from "../../../contract/photos.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";
import type { ProductRow } from "../products/products.repo.js";
import { MEDIA_BACKUP_LOCK, MEDIA_FILE_LOCK } from "./media-store.js";

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

/** Locks the files (until the transaction ends), in key order so two transactions never wait on each other. */
export async function lockMediaFiles(tx: Db, names: string[]): Promise<void> {
  const keys = [...new Set(names.map((name) => Number.parseInt(name.slice(0, 8), 16) | 0))].sort((a, b) => a - b);
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(${MEDIA_FILE_LOCK}::int, ${key}::int)`);
}

/** False while a backup copies the files (it holds MEDIA_BACKUP_LOCK); else shares the lock until the transaction ends. */
export async function tryMediaCleanupLock(tx: Db): Promise<boolean> {
  const [row] = rowsOf<{ locked: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock_shared(${MEDIA_BACKUP_LOCK}::int, 0) as locked`),
  );
  return row?.locked === true;
}

/** Which of these photo URLs some product's photos still name (as a photo or a thumbnail), disabled products included. */
export async function mediaUrlsInUse(tx: Db, urls: string[]): Promise<Set<string>> {
  const rows = rowsOf<{ url: string }>(
    await tx.execute(sql`
      select distinct u.url
      from products p
        cross join lateral jsonb_array_elements(p.photos) e
        cross join lateral (values (e->>'url'), (e->>'thumbnail_url')) u(url)
      where p.photos <> '[]'::jsonb and u.url in (select json_array_elements_text(${jsonReadOnce(urls)}))`),
  );
  return new Set(rows.map((r) => r.url));
}
