import { and, eq, ne, or, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { gtinKey } from "../../../contract/gtin.js";
import type { Product } from "../../../contract/products.js";
import { QUANTITY_MAX_EXCLUSIVE } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { prepared, type RawStatement, rawRows } from "../../db/prepared.js";
import { products } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";

export type ProductRow = typeof products.$inferSelect;

/** The largest id a PostgreSQL `integer` holds; larger ids cannot exist. */
export const MAX_ID = 2_147_483_647;

/** Every product write takes its revision in its own transaction (see migration 0002). */
const TAKE_REVISION = sql`take_revision()`;

const changedSince = prepared((db) =>
  db
    .select({ count: sql<number>`count(*)::int` })
    .from(
      sql`(select 1 from ${products} where ${products.revision} > ${sql.placeholder("revision")} limit ${sql.placeholder("limit")}) as changed`,
    )
    .prepare("products_changed_since"),
);

/** How many products changed after `revision`, counting at most `limit` (an index range scan). */
export async function countProductsChangedSince(db: Db, revision: number, limit: number): Promise<number> {
  const [row] = await changedSince(db).execute({ revision, limit });
  return Number(row?.count ?? 0);
}

export interface CatalogueRevision {
  /** Every revision up to here is committed and visible to later statements (catalogue_watermark()). */
  watermark: number;
  /** The last revision handed out, committed or not. */
  latest: number;
}

/**
 * The catalogue's revision. Read it in a statement of its own BEFORE reading products: only a
 * later statement's snapshot is sure to see every change up to the watermark.
 */
export async function readCatalogueRevision(db: Db): Promise<CatalogueRevision> {
  const [row] = rowsOf<{ watermark: string | number; latest: string | number }>(
    await db.execute(sql`
      select catalogue_watermark() as watermark,
        (select case when is_called then last_value else last_value - 1 end from product_revision_seq) as latest`),
  );
  if (!row) throw new Error("catalogue revision: no answer");
  return { watermark: Number(row.watermark), latest: Number(row.latest) };
}

/** A product as the catalogue mirror keeps it: product_json_text() (migration 0018) and what the list is ordered by. */
export interface MirrorRow {
  id: number;
  revision: number;
  /** created_at in microseconds since the epoch (the list is newest first, then by id). */
  created: number;
  json: string;
}

/** Where the mirror's next page starts: after an id (the first load), or changes above a revision after the last row read. */
export type MirrorPageAfter = { byId: number } | { since: number; last?: { revision: number; id: number } };

/** A page of products for the catalogue mirror (catalogue-mirror.ts), in the order the page reads them. */
export async function mirrorPage(db: Db, after: MirrorPageAfter, limit: number): Promise<MirrorRow[]> {
  const where =
    "byId" in after
      ? sql`p.id > ${after.byId} order by p.id`
      : after.last
        ? sql`(p.revision, p.id) > (${after.last.revision}::bigint, ${after.last.id}::int) order by p.revision, p.id`
        : sql`p.revision > ${after.since}::bigint order by p.revision, p.id`;
  const rows = rowsOf<{ id: number; revision: string | number; created: string | number; json: string }>(
    await db.execute(sql`
      select p.id, p.revision, (extract(epoch from p.created_at) * 1000000)::bigint as created, product_json_text(p) as json
      from products p where ${where} limit ${limit}`),
  );
  return rows.map((r) => ({ id: r.id, revision: Number(r.revision), created: Number(r.created), json: r.json }));
}

/** The product row, locked until the end of the transaction (edits and status changes). */
export async function lockProductById(tx: Db, id: number): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).limit(1).for("update");
  return row;
}

/**
 * The exact barcode first: a product that shares its GTIN with an older one (no key, see
 * migration 0005) is still found by what is printed on it.
 */
const PRODUCT_JSON_BY_BARCODE: RawStatement = {
  name: "product_json_by_barcode",
  text: `select product_json_text(p) as json from products p where p.barcode_key = $1 or p.barcode = $2
         order by p.barcode = $2 desc limit 1`,
};

/**
 * A scan's lookup by GTIN (contract/gtin.ts): `820650853548` finds the product stored as
 * `0820650853548` and the reverse; other codes match exactly. The product as the JSON text of
 * the answer, built by the database (nothing to decode and encode again), from a prepared
 * statement sent straight through node-postgres (rawRows): it runs thousands of times a stream.
 */
export async function findProductJsonByBarcode(db: Db, barcode: string): Promise<string | undefined> {
  const [row] = await rawRows<{ json: string }>(db, PRODUCT_JSON_BY_BARCODE, [gtinKey(barcode), barcode]);
  return row?.json;
}

/** Whether another product than `exceptId` already has this barcode, or another form of the same GTIN. */
export async function barcodeTaken(db: Db, barcode: string, exceptId?: number): Promise<boolean> {
  const same = or(eq(products.barcodeKey, gtinKey(barcode)), eq(products.barcode, barcode));
  const where = exceptId === undefined ? same : and(same, ne(products.id, exceptId));
  const [row] = await db.select({ id: products.id }).from(products).where(where).limit(1);
  return row !== undefined;
}

/** The next number of shop_code_seq (migration 0007): never the same twice, also across processes. */
export async function nextShopCodeNumber(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(await db.execute(sql`select nextval('shop_code_seq') as n`));
  if (!row) throw new Error("shop code: no answer");
  return Number(row.n);
}

/** Products that share their GTIN with an older product and so have no key (migration 0005), with that product. */
export async function productsSharingGtin(db: Db): Promise<Array<{ id: number; barcode: string; ownerId: number; ownerBarcode: string }>> {
  const rows = await db.execute(sql`
    select p.id, p.barcode, o.id as owner_id, o.barcode as owner_barcode
    from products p join products o on o.barcode_key = gtin_key(p.barcode)
    where p.barcode_key is null order by p.id`);
  return rowsOf<{ id: number; barcode: string; owner_id: number; owner_barcode: string }>(rows).map((r) => ({
    id: r.id,
    barcode: r.barcode,
    ownerId: r.owner_id,
    ownerBarcode: r.owner_barcode,
  }));
}

/** What a new product or an edit writes: the spec's fields and the card details. */
export type ProductValues = Pick<
  typeof products.$inferInsert,
  | "barcode"
  | "productName"
  | "vendor"
  | "releaseYear"
  | "quantityOnHand"
  | "price"
  | "cost"
  | "condition"
  | "grader"
  | "grade"
  | "setName"
  | "cardNumber"
  | "location"
  | "reorderPoint"
>;

export async function insertProduct(tx: Db, values: ProductValues): Promise<ProductRow> {
  const [row] = await tx
    .insert(products)
    .values({ ...values, revision: TAKE_REVISION })
    .returning();
  if (!row) throw new Error("product insert returned nothing");
  return row;
}

/**
 * Writes a change to one product: the given columns, a new version and a new revision. The
 * revision is taken once the row is locked (by this UPDATE or before it), so it is above the
 * revision of every change to that product committed before.
 */
async function writeProduct(tx: Db, id: number, values: PgUpdateSetSource<typeof products>, where?: SQL): Promise<ProductRow | undefined> {
  const [row] = await tx
    .update(products)
    .set({ ...values, version: sql`${products.version} + 1`, revision: TAKE_REVISION, updatedAt: sql`now()` })
    .where(and(eq(products.id, id), where))
    .returning();
  return row;
}

/** Writes an edit (only the given fields). */
export async function updateProduct(tx: Db, id: number, values: Partial<ProductValues>): Promise<ProductRow> {
  const row = await writeProduct(tx, id, values);
  if (!row) throw new Error("product update returned nothing");
  return row;
}

export async function setProductActive(tx: Db, id: number, isActive: boolean): Promise<ProductRow> {
  const row = await writeProduct(tx, id, { isActive });
  if (!row) throw new Error("product status update returned nothing");
  return row;
}

export interface QuantityChange {
  /** Undefined for an id no product can have (answers 404). */
  productId: number | undefined;
  delta: number;
  /** A stock count's starting stock: refused when the stock is no longer this. */
  expected?: number;
  reason: string;
  userId: number;
  userName: string;
  ip: string;
  /** The Idempotency-Key and the hash of the request it came with, when the request had one. */
  key?: { key: string; requestHash: string };
  /** The show the tap was made in (migration 0006): the user's own, written into the quantity audit. */
  showId?: number;
  /** The order the change belongs to (migration 0011), written into the quantity audit. */
  orderId?: number;
  /** The unit price it sold at (an order line's); the product's price when left out. */
  unitPrice?: number | null;
}

/** What apply_quantity_change answers: the product, or a refusal the service turns into its message. */
export interface QuantityChangeAnswer {
  status: number;
  body: Product | { refusal: QuantityRefusal } | { error: string };
  /** The stored answer of an earlier request with the same key: nothing changed now. */
  replayed: boolean;
}
export type QuantityRefusal =
  | "not_found"
  | "disabled"
  | "stock_moved"
  | "insufficient_stock"
  | "stock_limit"
  | "key_reused"
  | "show_not_found"
  | "show_not_yours";

const applyQuantityChangeStatement = prepared((db) =>
  db
    .select({ status: sql<number>`status`, body: sql<QuantityChangeAnswer["body"]>`body`, replayed: sql<boolean>`replayed` })
    .from(
      sql`apply_quantity_change(${sql.placeholder("productId")}, ${sql.placeholder("delta")}, ${sql.placeholder("expected")}, ${QUANTITY_MAX_EXCLUSIVE}, ${sql.placeholder("reason")},
        ${sql.placeholder("userId")}, ${sql.placeholder("userName")}, ${sql.placeholder("ip")}, ${sql.placeholder("key")},
        ${sql.placeholder("requestHash")}, ${sql.placeholder("showId")}, ${sql.placeholder("orderId")}, ${sql.placeholder("unitPrice")})`,
    )
    .prepare("apply_quantity_change"),
);

/**
 * The atomic stock change in one statement, so one round trip (migrations 0003, 0006 and 0011): the key's claim, the show's check,
 * one conditional UPDATE (never read-then-write; nothing changes when the product is missing,
 * disabled, or the stock would leave 0..QUANTITY_MAX_EXCLUSIVE-1), both audit rows and the
 * key's stored answer commit together.
 */
export async function applyQuantityChange(db: Db, change: QuantityChange): Promise<QuantityChangeAnswer> {
  const [answer] = await applyQuantityChangeStatement(db).execute({
    productId: change.productId ?? null,
    delta: change.delta,
    expected: change.expected ?? null,
    reason: change.reason,
    userId: change.userId,
    userName: change.userName,
    ip: change.ip,
    key: change.key?.key ?? null,
    requestHash: change.key?.requestHash ?? null,
    showId: change.showId ?? null,
    orderId: change.orderId ?? null,
    unitPrice: change.unitPrice ?? null,
  });
  if (!answer) throw new Error("apply_quantity_change answered nothing");
  return answer;
}
