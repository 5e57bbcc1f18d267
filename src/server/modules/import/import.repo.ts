import { type SQL, sql } from "drizzle-orm";
import { gtinKey } from "../../../contract/gtin.js";
import type { ImportField } from "../../../contract/import.js";
import type { Product } from "../../../contract/products.js";
import { DETAIL_FIELDS } from "../../../contract/rules.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema.js";
import { isUniqueViolation, jsonParam, jsonReadOnce, rowsOf } from "../../db/sql.js";
import { AUDITED_FIELDS, type AuditedValues } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";

/** The fields an import writes, with their SQL types (they are the products table's column names). */
const IMPORT_COLUMNS = [
  ["product_name", "text"],
  ["vendor", "text"],
  ["release_year", "integer"],
  ["quantity_on_hand", "integer"],
  ["is_active", "boolean"],
  ["price", "integer"],
  ["cost", "integer"],
  ["condition", "text"],
  ["grader", "text"],
  ["grade", "text"],
  ["set_name", "text"],
  ["card_number", "text"],
  ["location", "text"],
  ["reorder_point", "integer"],
] as const satisfies ReadonlyArray<readonly [ImportField, string]>;
const columnList = (f: (name: ImportField) => string) => sql.raw(IMPORT_COLUMNS.map(([name]) => f(name)).join(", "));
/** Arrays as one parameter each (a JSON text cast on the server). */
const textArray = (values: string[]) => sql`array(select json_array_elements_text(${jsonReadOnce(values)}))`;
const intArray = (values: number[]) => sql`array(select json_array_elements_text(${jsonReadOnce(values)})::int)`;
/** The card details as `'name', c.name` pairs (a CREATE audit entry has those that are set). */
const detailPairs = sql.raw(DETAIL_FIELDS.map((f) => `'${f}', c.${f}`).join(", "));
const detailColumns = sql.raw(DETAIL_FIELDS.map((f) => `c.${f}`).join(", "));
const recordColumns = sql.raw(IMPORT_COLUMNS.map(([f, type]) => `${f} ${type}`).join(", "));

/**
 * The products named by these barcodes: the same barcode, or another form of its GTIN
 * (contract/gtin.ts). `= any(array)`: two index scans (a subquery here made the planner scan the
 * whole table).
 */
function namedBy(barcodes: string[]): SQL {
  const keys = [...new Set(barcodes.map(gtinKey))];
  return sql`${products.barcodeKey} = any(${textArray(keys)}) or ${products.barcode} = any(${textArray(barcodes)})`;
}

/**
 * The existing products with these barcodes or another form of their GTINs. `lock`: locked for
 * update, in id order (every writer of many products locks in that order, so two never deadlock);
 * else a snapshot to plan against.
 */
export async function findProductsByBarcodes(db: Db, barcodes: string[], lock = false): Promise<ProductRow[]> {
  if (barcodes.length === 0) return [];
  const query = db.select().from(products).where(namedBy(barcodes)).orderBy(products.id);
  return lock ? query.for("update") : query;
}

/**
 * The barcodes and GTIN keys of the products findProductsByBarcodes would find (no lock, nothing
 * else read): which rows of an import may update a product.
 */
export async function existingBarcodes(db: Db, barcodes: string[]): Promise<string[]> {
  if (barcodes.length === 0) return [];
  const rows = await db.select({ barcode: products.barcode, barcodeKey: products.barcodeKey }).from(products).where(namedBy(barcodes));
  return rows.flatMap((r) => (r.barcodeKey === null ? [r.barcode] : [r.barcode, r.barcodeKey]));
}

/** Locks products by id, in id order. */
export async function lockProductsById(tx: Db, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(products)
    .where(sql`${products.id} = any(${intArray(ids)})`)
    .orderBy(products.id)
    .for("update");
}

/** Who writes, for the audit rows, and the import the rows belong to. */
export interface Importer {
  userId: number | null;
  userName: string;
  ipAddress: string | null;
  /** product_audit.import_id: set on the import's own changes (what an undo reverts), null on the undo's. */
  importId: string | null;
  /** quantity_audit.notes of the stock changes. */
  note: string;
}

/** A new product an import creates: its import fields; one left out is null (json_to_recordset reads an absent key as null). */
export type NewProduct = { barcode: string } & Partial<Record<ImportField, unknown>>;

/** A change to one locked product: the fields it sets, their values before (as read under the lock) and after. */
export interface ProductUpdate {
  id: number;
  action: "UPDATE" | "DISABLE";
  fields: ImportField[];
  old: Partial<AuditedValues>;
  new: Partial<AuditedValues>;
}

export interface ProductsWritten {
  created: number;
  updated: number;
  /** The changed products that reached their reorder point (reached_reorder_point(), migration 0020), as committed. */
  reached: Product[];
  /** The revision the changes got (take_revision()); null when there was nothing to write. */
  revision: number | null;
  /** Whether the `then` part's `moved` answered a row (true without one). */
  moved: boolean;
}

/**
 * Creates products and changes locked ones, with their audit rows (a quantity row where the stock
 * is set or changes), in one statement that also takes their revision: call it once every product
 * it changes is locked (migration 0002). The caller read the old values under the lock, so they
 * are exact. Answers the counts and the revision, or `raced` when another transaction created one
 * of the new barcodes (or another form of its GTIN) first: the statement failed, the transaction
 * is aborted, and the caller rolls it back and plans again. (A plain insert, not `on conflict do
 * nothing`: the speculative insertion that needs costs every row of every import, for a race
 * that almost never happens.)
 * `then`: more data-modifying CTEs for the same statement, one of them named `moved` (an import
 * batch moves its cursor there: one round trip fewer per batch); it runs even when there is
 * nothing to write, the answer says whether `moved` returned a row, and nothing is written unless
 * it did (so a batch that is this one statement needs no transaction of its own).
 */
export async function writeProducts(
  tx: Db,
  who: Importer,
  creates: NewProduct[],
  updates: ProductUpdate[],
  then?: SQL,
): Promise<ProductsWritten | "raced"> {
  const writes = creates.length + updates.length > 0;
  if (!writes && !then) return { created: 0, updated: 0, reached: [], revision: null, moved: true };
  const ctes: SQL[] = [];
  // First, so that the writes can wait for it: they happen only if `moved` answers a row.
  if (then) ctes.push(then);
  // Materialized: taken once, whichever statement part reads it first; none when nothing is written.
  if (writes) ctes.push(sql`rev as materialized (select take_revision() as r)`);
  const only = then ? sql`exists (select 1 from moved)` : sql`true`;
  if (creates.length > 0) ctes.push(createCtes(who, creates, only));
  if (updates.length > 0) ctes.push(updateCtes(who, updates, only));
  let result: unknown;
  try {
    result = await tx.execute(sql`
      with ${sql.join(ctes, sql`, `)}
      select ${writes ? sql`(select r from rev)` : sql`null`}::bigint as revision,
        ${creates.length > 0 ? sql`(select count(*) from created)` : sql`0`}::int as created,
        ${updates.length > 0 ? sql`(select count(*) from updated)` : sql`0`}::int as updated,
        ${updates.length > 0 ? sql`(select string_agg(reached, ',') from updated)` : sql`null`}::text as reached,
        ${then ? sql`(select count(*) from moved)` : sql`1`}::int as moved`);
  } catch (err) {
    if (isUniqueViolation(err)) return "raced";
    throw err;
  }
  const [row] = rowsOf<{ revision: string | number | null; created: number; updated: number; reached: string | null; moved: number }>(
    result,
  );
  return {
    created: Number(row?.created ?? 0),
    updated: Number(row?.updated ?? 0),
    reached: row?.reached ? (JSON.parse(`[${row.reached}]`) as Product[]) : [],
    revision: row?.revision == null ? null : Number(row.revision),
    moved: Number(row?.moved ?? 0) > 0,
  };
}

/**
 * The products created, their CREATE audit rows and, where they have stock, their quantity rows;
 * none unless `only` holds.
 */
function createCtes(who: Importer, rows: NewProduct[], only: SQL): SQL {
  return sql`
      created as (
        insert into products (barcode, ${columnList((f) => f)}, revision)
        select s.barcode, ${columnList((f) => `s.${f}`)}, (select r from rev)
        from json_to_recordset(${jsonReadOnce(rows)}) as s(barcode text, ${recordColumns})
        where ${only}
        order by s.barcode
        returning id, barcode, ${columnList((f) => f)}, version
      ),
      created_audit as (
        insert into product_audit (product_id, product_name, barcode, action, user_id, user_name,
          changed_fields, old_values, new_values, ip_address, product_version, import_id)
        select c.id, c.product_name, c.barcode, 'CREATE', ${who.userId}::int, ${who.userName}::text,
          ${jsonParam(AUDITED_FIELDS)}, null,
          -- As createdValues(): the spec's fields, and the card details that are set. A product with
          -- none (the spec's CSV columns) skips building them, much of the write statement's JSON work.
          jsonb_build_object('barcode', c.barcode, 'product_name', c.product_name, 'vendor', c.vendor,
            'release_year', c.release_year, 'quantity_on_hand', c.quantity_on_hand, 'is_active', c.is_active)
          || case when num_nonnulls(${detailColumns}) = 0 then '{}'::jsonb
             else jsonb_strip_nulls(jsonb_build_object(${detailPairs})) end,
          ${who.ipAddress}::text, c.version, ${who.importId}::uuid
        from created c order by c.id
      ),
      created_stock as (
        insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before, quantity_after,
          transaction_type, notes, user_id, user_name)
        select c.id, c.product_name, c.barcode, c.quantity_on_hand, 0, c.quantity_on_hand, 'import', ${who.note}::text,
          ${who.userId}::int, ${who.userName}::text
        from created c where c.quantity_on_hand > 0 order by c.id
      )`;
}

/**
 * The locked products changed, their audit rows and, where the stock changes, their quantity rows;
 * none unless `only` holds. Each changed product that reached its reorder point comes back as its
 * JSON (`reached`): its stock and point before are the old values read under the lock (`u.old`)
 * for the fields the row sets, the row's own for the others.
 */
function updateCtes(who: Importer, updates: ProductUpdate[], only: SQL): SQL {
  const rows = updates.map((u) => ({ ...u.new, id: u.id, action: u.action, fields: u.fields, old: u.old, new: u.new }));
  return sql`
      u as (
        select * from json_to_recordset(${jsonReadOnce(rows)})
          as x(id integer, action text, fields text[], old jsonb, new jsonb, ${recordColumns})
      ),
      updated as (
        update products as p set
          ${columnList((f) => `${f} = case when '${f}' = any(u.fields) then u.${f} else p.${f} end`)},
          version = p.version + 1, revision = (select r from rev), updated_at = now()
        from u where p.id = u.id and ${only}
        returning p.id, p.product_name, p.barcode, p.version,
          case when reached_reorder_point(
            case when 'quantity_on_hand' = any(u.fields) then (u.old->>'quantity_on_hand')::int else p.quantity_on_hand end,
            case when 'reorder_point' = any(u.fields) then (u.old->>'reorder_point')::int else p.reorder_point end,
            p.quantity_on_hand, p.reorder_point)
          then product_json_text(p) end as reached
      ),
      updated_audit as (
        insert into product_audit (product_id, product_name, barcode, action, user_id, user_name,
          changed_fields, old_values, new_values, ip_address, product_version, import_id)
        select d.id, d.product_name, d.barcode, u.action, ${who.userId}::int, ${who.userName}::text,
          to_jsonb(u.fields), u.old, u.new, ${who.ipAddress}::text, d.version, ${who.importId}::uuid
        from updated d join u on u.id = d.id order by d.id
      ),
      updated_stock as (
        insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before, quantity_after,
          transaction_type, notes, user_id, user_name)
        select d.id, d.product_name, d.barcode,
          (u.new->>'quantity_on_hand')::int - (u.old->>'quantity_on_hand')::int,
          (u.old->>'quantity_on_hand')::int, (u.new->>'quantity_on_hand')::int,
          'import', ${who.note}::text, ${who.userId}::int, ${who.userName}::text
        from updated d join u on u.id = d.id where 'quantity_on_hand' = any(u.fields) order by d.id
      )`;
}

/** An audit entry of a change made to a product after a moment: which fields it changed, and their values before it. */
export interface LaterChange {
  productId: number;
  id: number;
  fields: string[];
  oldValues: Record<string, unknown> | null;
}

type LaterChangeRow = { product_id: number; id: string | number; changed_fields: string[]; old_values: Record<string, unknown> | null };
const laterChanges = (result: unknown): LaterChange[] =>
  rowsOf<LaterChangeRow>(result).map((r) => ({
    productId: r.product_id,
    id: Number(r.id),
    fields: r.changed_fields,
    oldValues: r.old_values,
  }));

/**
 * The changes made to these products after each one's moment (an export's updated_at, which has
 * millisecond precision: changes within that millisecond count as the exported state), oldest first.
 */
export async function changesSince(tx: Db, since: Array<{ id: number; at: string }>): Promise<LaterChange[]> {
  if (since.length === 0) return [];
  return laterChanges(
    await tx.execute(sql`
      select a.product_id, a.id, a.changed_fields, a.old_values
      from json_to_recordset(${jsonReadOnce(since)}) as q(id integer, at timestamptz)
        join product_audit a on a.product_id = q.id and a.timestamp >= q.at + interval '1 millisecond'
      order by a.id`),
  );
}

/** The changes made to these products after the audit entry `afterId`, oldest first. */
export async function changesAfter(tx: Db, productIds: number[], afterId: number): Promise<LaterChange[]> {
  if (productIds.length === 0) return [];
  return laterChanges(
    await tx.execute(sql`
      select a.product_id, a.id, a.changed_fields, a.old_values from product_audit a
      where a.product_id = any(${intArray(productIds)}) and a.id > ${afterId}::bigint
      order by a.id`),
  );
}

/** The product audit entries an import wrote (CREATE and UPDATE), in order, `limit` after entry `afterId`. */
export async function importAuditEntries(
  db: Db,
  importId: string,
  afterId: number,
  limit: number,
): Promise<
  Array<{
    id: number;
    productId: number | null;
    barcode: string;
    productName: string;
    action: string;
    fields: string[];
    oldValues: Record<string, unknown> | null;
    newValues: Record<string, unknown> | null;
  }>
> {
  const rows = rowsOf<{
    id: string | number;
    product_id: number | null;
    barcode: string;
    product_name: string;
    action: string;
    changed_fields: string[];
    old_values: Record<string, unknown> | null;
    new_values: Record<string, unknown> | null;
  }>(
    await db.execute(sql`
      select id, product_id, barcode, product_name, action, changed_fields, old_values, new_values from product_audit
      where import_id = ${importId}::uuid and id > ${afterId}::bigint order by id limit ${limit}::int`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    productId: r.product_id,
    barcode: r.barcode,
    productName: r.product_name,
    action: r.action,
    fields: r.changed_fields,
    oldValues: r.old_values,
    newValues: r.new_values,
  }));
}
