import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { ProductRow } from "./seed.js";
import { ADMIN, adminQuery, createDatabase, dropDatabase, removeDir, startServer, stopServer, tempDir } from "./servers.js";

/**
 * The floor for an import: the same rows and the audit rows the app writes for them (a product_audit
 * CREATE row per product, a quantity_audit `import` row per product with stock), loaded with COPY into
 * a fresh database whose schema the real server made (it is started once on it, then stopped).
 * Only the COPY statements and their COMMIT are timed.
 */

const run = promisify(execFile);
const IMPORT_NOTE = "CSV import";

/**
 * Columns the app fills beyond the original schema, when the server's migrations have them:
 * products.revision (the app gives all rows of one import statement one revision) and
 * product_audit.product_version (1 for a created product).
 */
export interface Layout {
  revision?: number;
  productVersion: boolean;
}

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** Reads the fresh database's columns; takes one revision from the app's sequence when products have one. */
async function layoutOf(query: Query): Promise<Layout> {
  const columns = await query(
    "select table_name || '.' || column_name as c from information_schema.columns where table_name in ('products', 'product_audit')",
  );
  const has = (c: string) => columns.some((r) => r.c === c);
  let revision: number | undefined;
  if (has("products.revision")) {
    const [seq] = await query("select to_regclass('product_revision_seq') is not null as ok");
    revision = seq?.ok ? Number((await query("select nextval('product_revision_seq') as v"))[0]?.v) : 1;
  }
  return { revision, productVersion: has("product_audit.product_version") };
}

const columns = (layout: Layout) => ({
  products: `barcode, product_name, vendor, release_year, quantity_on_hand, is_active${layout.revision === undefined ? "" : ", revision"}`,
  productAudit: `product_id, product_name, barcode, action, user_id, user_name, changed_fields, old_values, new_values, ip_address${layout.productVersion ? ", product_version" : ""}`,
  quantityAudit:
    "product_id, product_name, barcode, quantity_change, quantity_before, quantity_after, transaction_type, notes, user_id, user_name",
});

/** A CSV field: null is an unquoted empty field (COPY's NULL in CSV format). */
function field(value: string | number | boolean | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) || text === "" ? `"${text.replaceAll('"', '""')}"` : text;
}
const line = (values: Array<string | number | boolean | null>) => `${values.map(field).join(",")}\n`;

/** The three CSV documents. Products get ids 1..n in file order: the fresh table's sequence. */
export function copyDocuments(rows: ProductRow[], user: { id: number; username: string }, layout: Layout) {
  let products = "";
  let productAudit = "";
  let quantityAudit = "";
  rows.forEach((r, i) => {
    const id = i + 1;
    const product = [r.barcode, r.product_name, r.vendor, r.release_year, r.quantity_on_hand, r.is_active];
    products += line(layout.revision === undefined ? product : [...product, layout.revision]);
    const values = { ...r };
    productAudit += line([
      id,
      r.product_name,
      r.barcode,
      "CREATE",
      user.id,
      user.username,
      JSON.stringify(Object.keys(values)),
      null,
      JSON.stringify(values),
      "127.0.0.1",
      ...(layout.productVersion ? [1] : []),
    ]);
    if (r.quantity_on_hand > 0) {
      quantityAudit += line([
        id,
        r.product_name,
        r.barcode,
        r.quantity_on_hand,
        0,
        r.quantity_on_hand,
        "import",
        IMPORT_NOTE,
        user.id,
        user.username,
      ]);
    }
  });
  return { products, productAudit, quantityAudit };
}

/** "products 12 ms, product_audit ..." from the times of the three COPYs and the commit. */
const steps = (t: number[]) =>
  ["products", "product_audit", "quantity_audit", "commit"].map((name, i) => `${name} ${(t[i] ?? Number.NaN).toFixed(0)} ms`).join(", ");

export interface CopyResult {
  ms: number;
  method: string;
}

/** PostgreSQL: psql's \copy (COPY ... FROM STDIN fed by psql) from CSV files, timed by psql's \timing. */
export async function copyBaselinePostgres(rows: ProductRow[]): Promise<CopyResult> {
  const db = await createDatabase("copy");
  const dir = tempDir("blez-bench-copy-");
  try {
    await stopServer(await startServer("schema-maker", { dataDir: dir, databaseUrl: db.url }));
    const users = await adminQuery(`select id from users where username = '${ADMIN.username}'`, db.url);
    const user = { id: Number(users.rows[0]?.id), username: ADMIN.username };
    const layout = await layoutOf(async (q) => (await adminQuery(q, db.url)).rows);
    const docs = copyDocuments(rows, user, layout);
    const cols = columns(layout);
    const files = {
      products: join(dir, "products.csv"),
      productAudit: join(dir, "product_audit.csv"),
      quantityAudit: join(dir, "quantity_audit.csv"),
    };
    writeFileSync(files.products, docs.products);
    writeFileSync(files.productAudit, docs.productAudit);
    writeFileSync(files.quantityAudit, docs.quantityAudit);
    const { stdout } = await run(
      "psql",
      [
        "-X",
        "-v",
        "ON_ERROR_STOP=1",
        "-d",
        db.url,
        "-c",
        "\\timing on",
        "-c",
        "begin",
        "-c",
        `\\copy products (${cols.products}) from '${files.products}' with (format csv)`,
        "-c",
        `\\copy product_audit (${cols.productAudit}) from '${files.productAudit}' with (format csv)`,
        "-c",
        `\\copy quantity_audit (${cols.quantityAudit}) from '${files.quantityAudit}' with (format csv)`,
        "-c",
        "commit",
      ],
      { maxBuffer: 1 << 20 },
    );
    // "Time: 123.456 ms" after begin, each COPY and commit.
    const times = [...stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
    if (times.length !== 5) throw new Error(`psql: unexpected output:\n${stdout}`);
    const check = await adminQuery("select (select count(*) from products) as p, (select max(id) from products) as m", db.url);
    if (Number(check.rows[0]?.p) !== rows.length || Number(check.rows[0]?.m) !== rows.length)
      throw new Error("COPY baseline: unexpected product ids");
    return {
      ms: times.slice(1).reduce((a, b) => a + b, 0),
      method: `psql \\copy (COPY FROM STDIN) of 3 CSV files in one transaction, by psql's \\timing: ${steps(times.slice(1))}`,
    };
  } finally {
    await dropDatabase(db.name);
    removeDir(dir);
  }
}

/** Embedded: PGlite on a fresh DATA_DIR (schema by the server, which is stopped first), COPY FROM '/dev/blob'. */
export async function copyBaselinePglite(rows: ProductRow[]): Promise<CopyResult> {
  const dir = tempDir("blez-bench-copy-");
  try {
    const dataDir = join(dir, "data");
    await stopServer(await startServer("schema-maker", { dataDir }));
    const pg = new PGlite(dataDir);
    try {
      await pg.waitReady;
      const users = await pg.query<{ id: number }>("select id from users where username = $1", [ADMIN.username]);
      const layout = await layoutOf(async (q) => (await pg.query<Record<string, unknown>>(q)).rows);
      const docs = copyDocuments(rows, { id: Number(users.rows[0]?.id), username: ADMIN.username }, layout);
      const cols = columns(layout);
      const times: number[] = [];
      const timed = async (work: () => Promise<unknown>) => {
        const t = performance.now();
        await work();
        times.push(performance.now() - t);
      };
      await timed(() => pg.exec("begin"));
      await timed(() =>
        pg.query(`copy products (${cols.products}) from '/dev/blob' with (format csv)`, [], { blob: new Blob([docs.products]) }),
      );
      await timed(() =>
        pg.query(`copy product_audit (${cols.productAudit}) from '/dev/blob' with (format csv)`, [], {
          blob: new Blob([docs.productAudit]),
        }),
      );
      await timed(() =>
        pg.query(`copy quantity_audit (${cols.quantityAudit}) from '/dev/blob' with (format csv)`, [], {
          blob: new Blob([docs.quantityAudit]),
        }),
      );
      await timed(() => pg.exec("commit"));
      const ms = times.reduce((a, b) => a + b, 0);
      const check = await pg.query<{ p: number; m: number }>("select count(*)::int as p, max(id) as m from products");
      if (check.rows[0]?.p !== rows.length || check.rows[0]?.m !== rows.length) throw new Error("COPY baseline: unexpected product ids");
      return {
        ms,
        method: `PGlite COPY FROM '/dev/blob' (blob option) in the bench process, 3 tables in one transaction: ${steps(times.slice(1))}`,
      };
    } finally {
      await pg.close();
    }
  } finally {
    removeDir(dir);
  }
}
