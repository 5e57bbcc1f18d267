import { sql } from "drizzle-orm";
import { gtinKey } from "../../../contract/gtin.js";
import type { ImportField, ImportRow } from "../../../contract/import.js";
import type { Db } from "../../db/client.js";
import { products } from "../../db/schema.js";
import { jsonParam, rowsOf } from "../../db/sql.js";
import { AUDITED_FIELDS } from "../products/product-changes.js";
import type { ProductRow } from "../products/products.repo.js";

const IMPORT_NOTE = "CSV import";

/** The fields an import writes, with their SQL types (the staged table's columns and the updates' comparisons). */
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
] as const satisfies ReadonlyArray<readonly [ImportField, string]>;
const columnList = (f: (name: ImportField) => string) => sql.raw(IMPORT_COLUMNS.map(([name]) => f(name)).join(", "));

/**
 * The existing products with these barcodes or another form of their GTINs (contract/gtin.ts),
 * in one statement, without locking them (a snapshot to plan against).
 */
export async function findProductsByBarcodes(db: Db, barcodes: string[]): Promise<ProductRow[]> {
  if (barcodes.length === 0) return [];
  const keys = [...new Set(barcodes.map(gtinKey))];
  return db
    .select()
    .from(products)
    .where(
      sql`${products.barcodeKey} in (select jsonb_array_elements_text(${jsonParam(keys)}))
        or ${products.barcode} in (select jsonb_array_elements_text(${jsonParam(barcodes)}))`,
    );
}

/**
 * A row to write: a new barcode (all fields, and its GTIN key to find it by when another
 * transaction created it first) or a planned update (the matched product's id, the fields that
 * differed in the snapshot).
 */
export type StagedRow = ImportRow & { action: "create" | "update"; fields: ImportField[]; id: number | null; barcode_key: string | null };

/** Who imports, for the audit rows. */
export interface Importer {
  userId: number;
  userName: string;
  ipAddress: string | null;
}

/** What one write statement did: how many products, and the revision they got (null when none). */
export interface Written {
  count: number;
  revision: number | null;
}

const writtenOf = (result: unknown): Written => {
  const [row] = rowsOf<{ count: number; revision: string | number | null }>(result);
  return { count: Number(row?.count ?? 0), revision: row?.revision == null ? null : Number(row.revision) };
};

/** Puts the rows to write into a temporary table of this transaction, from one JSON parameter. */
export async function stageImport(tx: Db, rows: StagedRow[]): Promise<void> {
  await tx.execute(sql`
    create temp table import_stage on commit drop as
    select * from jsonb_to_recordset(${jsonParam(rows)}) as x(action text, fields text[], id integer, barcode_key text,
      barcode text, ${sql.raw(IMPORT_COLUMNS.map(([f, type]) => `${f} ${type}`).join(", "))})`);
}

/**
 * Creates the staged new barcodes, with their audit rows, in one statement; all of them get one
 * new revision. A barcode (or another form of its GTIN) another transaction created first is
 * left out (ON CONFLICT DO NOTHING, which waits for that transaction): applyImportUpdates then
 * treats it as an update.
 */
export async function insertNewProducts(tx: Db, who: Importer): Promise<Written> {
  return writtenOf(
    await tx.execute(sql`
      with created as (
        insert into products (barcode, ${columnList((f) => f)}, revision)
        select s.barcode, ${columnList((f) => `s.${f}`)}, (select take_revision())
        from import_stage s
        where s.action = 'create'
        -- One order for every import: two imports with overlapping new barcodes wait for each other, never deadlock.
        order by s.barcode
        on conflict do nothing
        returning id, barcode, ${columnList((f) => f)}, version, revision
      ),
      audit as (
        insert into product_audit (product_id, product_name, barcode, action, user_id, user_name,
          changed_fields, old_values, new_values, ip_address, product_version)
        select c.id, c.product_name, c.barcode, 'CREATE', ${who.userId}::int, ${who.userName}::text,
          ${jsonParam(AUDITED_FIELDS)}, null,
          -- As createdValues(): the spec's fields, and the card details that are set.
          jsonb_build_object('barcode', c.barcode, 'product_name', c.product_name, 'vendor', c.vendor,
            'release_year', c.release_year, 'quantity_on_hand', c.quantity_on_hand, 'is_active', c.is_active)
          || jsonb_strip_nulls(jsonb_build_object(${columnList((f) => `'${f}', c.${f}`)})),
          ${who.ipAddress}::text, c.version
        from created c order by c.id
      ),
      stock as (
        insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before, quantity_after,
          transaction_type, notes, user_id, user_name)
        select c.id, c.product_name, c.barcode, c.quantity_on_hand, 0, c.quantity_on_hand, 'import', ${IMPORT_NOTE}::text,
          ${who.userId}::int, ${who.userName}::text
        from created c where c.quantity_on_hand > 0 order by c.id
      )
      select count(*)::int as count, max(revision) as revision from created`),
  );
}

/** Per imported field: the staged value when the row writes that field, else the locked product's. */
const target = (field: ImportField) => `case when '${field}' = any(s.fields) then s.${field} else p.${field} end as ${field}`;

/**
 * The one statement that locks: locks the products of the planned updates (by the id they
 * matched) and of the new barcodes that another transaction created first (by GTIN key) (in id order, as every import does), writes
 * the staged fields that still differ, and inserts their audit rows with the values actually
 * replaced (read under the lock). Their revision is taken once every lock is held, so it is above
 * the revision of every change committed before; `insertRevision` is reused when it already is.
 * Keep it the last statement before COMMIT: the locks last until then.
 */
export async function applyImportUpdates(tx: Db, who: Importer, insertRevision: number | null): Promise<Written> {
  return writtenOf(
    await tx.execute(sql`
      with locked as (
        select p.id, p.barcode, p.revision,
          ${columnList((f) => `p.${f} as old_${f}`)},
          ${columnList(target)}
        from import_stage s
          -- A new barcode: the product of its GTIN, this import's own or one another created first.
          left join products k on s.id is null and k.barcode_key = s.barcode_key
          join products p on p.id = coalesce(s.id, k.id)
        where s.action = 'update' or p.revision is distinct from ${insertRevision}::bigint
        order by p.id
        for update of p
      ),
      changed as (
        select l.*, d.fields, d.old_values, d.new_values
        from locked l cross join lateral (
          select jsonb_agg(f.name order by f.ord) as fields,
            jsonb_object_agg(f.name, f.old) as old_values,
            jsonb_object_agg(f.name, f.new) as new_values
          from (values
            ${columnList((f) => `(${IMPORT_COLUMNS.findIndex(([n]) => n === f) + 1}, '${f}', to_jsonb(l.old_${f}), to_jsonb(l.${f}))`)}
          ) as f(ord, name, old, new)
          where f.old is distinct from f.new
        ) as d
        where d.fields is not null
      ),
      rev as (
        -- max() reads every locked row, so this runs once all the locks are held.
        select case when ${insertRevision}::bigint > (select max(revision) from locked) then ${insertRevision}::bigint
          else take_revision() end as value
      ),
      updated as (
        update products as p set
          ${columnList((f) => `${f} = c.${f}`)},
          version = p.version + 1, revision = (select value from rev), updated_at = now()
        from changed c
        where p.id = c.id
        returning p.id, p.version, p.revision
      ),
      audit as (
        insert into product_audit (product_id, product_name, barcode, action, user_id, user_name,
          changed_fields, old_values, new_values, ip_address, product_version)
        select c.id, c.product_name, c.barcode, 'UPDATE', ${who.userId}::int, ${who.userName}::text,
          c.fields, c.old_values, c.new_values, ${who.ipAddress}::text, u.version
        from changed c join updated u on u.id = c.id order by c.id
      ),
      stock as (
        insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before, quantity_after,
          transaction_type, notes, user_id, user_name)
        select c.id, c.product_name, c.barcode, c.quantity_on_hand - c.old_quantity_on_hand, c.old_quantity_on_hand,
          c.quantity_on_hand, 'import', ${IMPORT_NOTE}::text, ${who.userId}::int, ${who.userName}::text
        from changed c join updated u on u.id = c.id
        where c.quantity_on_hand <> c.old_quantity_on_hand order by c.id
      )
      select count(*)::int as count, max(revision) as revision from updated`),
  );
}
