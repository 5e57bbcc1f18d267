import { randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { expect } from "vitest";
import type { ImportJob, ImportResult } from "../../contract/import.js";
import type { Product } from "../../contract/products.js";
import { api, type ServerProcess } from "./server-processes.js";

/**
 * Helpers of the durable import tests (real server processes, embedded database or PostgreSQL):
 * a file of new products and updates, staged in parts, and what the database must hold after it.
 */

export type Row = Record<string, string | number>;
/** Runs SQL on the database the servers used (PostgreSQL directly, or the embedded data folder once its server stopped). */
export type Query = <T extends pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<T[]>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * Stops the process (SIGSTOP) wherever it is and asks `where` whether that is the place wanted:
 * if so, answers `where`'s answer with the process still stopped (the caller kills it, SIGKILL,
 * which ends a stopped process at once); if not, lets it go on (SIGCONT) and tries again. A crash
 * can come at any instant of the code production runs: stopping first lets the test look at the
 * instant it got before the kill lands there.
 */
export function stoppedWhere<T>(
  server: ServerProcess,
  what: string,
  where: () => Promise<T | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  return until(
    what,
    async () => {
      server.child.kill("SIGSTOP");
      let found: T | undefined | false;
      try {
        found = await where();
      } finally {
        if (found === undefined || found === false) server.child.kill("SIGCONT");
      }
      return found;
    },
    timeoutMs,
    20,
  );
}

export const uniquePrefix = (what: string) => `${what}${randomBytes(3).toString("hex")}`;

/** Imports `rows` in one call (the spec's POST /api/products/import) and answers its result. */
export async function importInOneCall(server: ServerProcess, cookie: string, rows: Row[]): Promise<ImportResult> {
  const res = await api<ImportResult>(server, cookie, "POST", "/api/products/import", { products: rows });
  if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(res.body)}\n${server.output.join("")}`);
  return res.body;
}

/**
 * Stages `rows` as an import in parts of `partRows`, part n sent to `servers[n % servers.length]`
 * (any process takes any part); answers the import's id, not committed.
 */
export async function stageImport(servers: ServerProcess[], cookie: string, rows: Row[], partRows: number): Promise<string> {
  const first = servers[0] as ServerProcess;
  const created = await api<ImportJob>(first, cookie, "POST", "/api/products/import/jobs");
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id;
  for (let part = 0; part * partRows < rows.length; part++) {
    const server = servers[part % servers.length] as ServerProcess;
    const products = rows.slice(part * partRows, (part + 1) * partRows);
    const staged = await api<ImportJob>(server, cookie, "PUT", `/api/products/import/jobs/${id}/parts/${part}`, { products });
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    expect(staged.body).toMatchObject({ status: "staging", received: Math.min(rows.length, (part + 1) * partRows) });
  }
  return id;
}

export async function commitImport(server: ServerProcess, cookie: string, id: string): Promise<void> {
  const res = await api<ImportJob>(server, cookie, "POST", `/api/products/import/jobs/${id}/commit`);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.status).toBe("committing");
}

export async function jobOf(server: ServerProcess, cookie: string, id: string): Promise<ImportJob> {
  const res = await api<ImportJob>(server, cookie, "GET", `/api/products/import/jobs/${id}`);
  if (res.status !== 200) throw new Error(`GET import ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Polls GET .../jobs/{id} until the import is done or failed. */
export function settled(server: ServerProcess, cookie: string, id: string, timeoutMs: number): Promise<ImportJob> {
  return until(
    `import ${id} to end`,
    async () => {
      const job = await jobOf(server, cookie, id);
      return job.status === "done" || job.status === "failed" ? job : undefined;
    },
    timeoutMs,
    200,
  );
}

/** One tap as a client sends it (PUT /api/products/{id}/quantity, -1, with an idempotency key); answers the HTTP status, -1 when no answer came. */
export async function tap(server: ServerProcess, cookie: string, productId: number): Promise<number> {
  try {
    const res = await fetch(`${server.url}/api/products/${productId}/quantity`, {
      method: "PUT",
      headers: { cookie, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ quantity_change: -1, reason: "Sold" }),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return -1;
  }
}

export async function productsByBarcode(server: ServerProcess, cookie: string): Promise<Map<string, Product>> {
  const res = await api<Product[]>(server, cookie, "GET", "/api/products");
  expect(res.status).toBe(200);
  return new Map(res.body.map((p) => [p.barcode, p]));
}

/** What a product must hold after the import: the file's values (price in cents). */
export interface Expected {
  product_name: string;
  vendor: string;
  quantity_on_hand: number;
  price: number;
  location: string;
}

/**
 * A file mixing every kind of row. First `listRows` new barcodes alone (as in a new price list:
 * a batch of them looks nothing up, so it is one write statement with no transaction around it),
 * then about 3,000 rows mixing 2,000 new barcodes (3 of 4 with stock), 1,000 updates of existing
 * products (price and location; 600 of them also the stock; a batch with one is a transaction
 * that locks them) and 20 rows equal to their product (skipped), and at the end 20 repeats of
 * earlier new barcodes (duplicates: skipped and reported). The existing products are created
 * first, by `setup`, with no stock.
 */
export function mixedImport(prefix: string, listRows = 0) {
  const setup: Row[] = [];
  const rows: Row[] = [];
  const expected = new Map<string, Expected>();
  /** Barcodes whose stock the import changes (one quantity_audit row each), with the stock before and after. */
  const stockChanges = new Map<string, { before: number; after: number }>();
  const created: string[] = [];
  const updated: string[] = [];

  const existing = (i: number): Row => ({
    barcode: `${prefix}-E-${i}`,
    product_name: `Existing Card ${i}`,
    vendor: "Topps",
    quantity_on_hand: "0",
    price: "1.00",
    location: "Shelf A1",
  });
  const same = (i: number): Row => ({
    barcode: `${prefix}-S-${i}`,
    product_name: `Unchanged Card ${i}`,
    vendor: "Leaf",
    quantity_on_hand: "0",
    price: "3.00",
    location: "Shelf S",
  });
  const fresh = (i: number): Row => ({
    barcode: `${prefix}-N-${i}`,
    product_name: `New Card ${i}`,
    vendor: "Panini",
    quantity_on_hand: String(i % 4),
    price: `${(i % 90) + 1}.50`,
    location: `Bin N${i % 5}`,
  });
  const listed = (i: number): Row => ({
    barcode: `${prefix}-L-${i}`,
    product_name: `Listed Card ${i}`,
    vendor: "Upper Deck",
    quantity_on_hand: String(i % 3),
    price: `${(i % 40) + 1}.75`,
    location: `Bin L${i % 7}`,
  });
  for (let i = 0; i < 1000; i++) setup.push(existing(i));
  for (let i = 0; i < 20; i++) setup.push(same(i));

  const update = (i: number): Row => {
    const quantity = i % 5 < 3 ? 1 + (i % 7) : 0;
    return { ...existing(i), quantity_on_hand: String(quantity), price: `${2 + (i % 50)}.25`, location: `Shelf B${i % 9}` };
  };
  const firstRowOf = new Map<string, number>();
  const push = (row: Row) => {
    rows.push(row);
    const fileRow = rows.length + 1; // row 1 is the header
    if (!firstRowOf.has(String(row.barcode))) firstRowOf.set(String(row.barcode), fileRow);
  };
  const remember = (row: Row) => {
    const barcode = String(row.barcode);
    expected.set(barcode, {
      product_name: String(row.product_name),
      vendor: String(row.vendor),
      quantity_on_hand: Number(row.quantity_on_hand),
      price: Math.round(Number(row.price) * 100),
      location: String(row.location),
    });
  };
  const create = (row: Row) => {
    push(row);
    remember(row);
    created.push(String(row.barcode));
    const stock = Number(row.quantity_on_hand);
    if (stock > 0) stockChanges.set(String(row.barcode), { before: 0, after: stock });
  };
  for (let i = 0; i < listRows; i++) create(listed(i));
  for (let k = 0; k < 1000; k++) {
    create(fresh(2 * k));
    create(fresh(2 * k + 1));
    const row = update(k);
    push(row);
    remember(row);
    updated.push(String(row.barcode));
    const stock = Number(row.quantity_on_hand);
    if (stock > 0) stockChanges.set(String(row.barcode), { before: 0, after: stock });
    if (k % 50 === 0) {
      const unchanged = same(k / 50);
      push(unchanged);
      remember(unchanged);
    }
  }
  const duplicateErrors: string[] = [];
  for (let i = 0; i < 20; i++) {
    const first = fresh(i * 7);
    const firstRow = firstRowOf.get(String(first.barcode)) as number;
    push({ ...first, product_name: "Duplicate Row", quantity_on_hand: "99" });
    duplicateErrors.push(
      `Row ${rows.length + 1}: Duplicate barcode '${first.barcode}' (already in row ${firstRow}; only the first is imported)`,
    );
  }
  return { setup, rows, listRows, expected, stockChanges, created, updated, duplicateErrors };
}

export type MixedImport = ReturnType<typeof mixedImport>;

/**
 * Checks that the import wrote every row exactly once: each product once with the file's values,
 * one product_audit row (CREATE or UPDATE, with the import's id) per created or updated product,
 * one quantity_audit row ('CSV import') per stock change, and the import's own counts.
 */
export async function expectWrittenOnce(query: Query, prefix: string, file: MixedImport, importId: string): Promise<void> {
  const products = await query<{ barcode: string } & Expected>(
    `select barcode, product_name, vendor, quantity_on_hand, price, location from products where barcode like $1`,
    [`${prefix}-%`],
  );
  expect(products.length).toBe(file.expected.size);
  expect(new Set(products.map((p) => p.barcode)).size).toBe(products.length);
  const wrong = products.filter((p) => {
    const want = file.expected.get(p.barcode);
    return (
      !want ||
      p.product_name !== want.product_name ||
      p.vendor !== want.vendor ||
      Number(p.quantity_on_hand) !== want.quantity_on_hand ||
      Number(p.price) !== want.price ||
      p.location !== want.location
    );
  });
  expect(wrong.slice(0, 5)).toEqual([]);

  const audit = await query<{ barcode: string; action: string; n: number }>(
    `select p.barcode, a.action, count(*)::int as n from product_audit a join products p on p.id = a.product_id
     where a.import_id = $1 group by p.barcode, a.action`,
    [importId],
  );
  expect(audit.filter((a) => Number(a.n) !== 1).slice(0, 5)).toEqual([]);
  const audited = (action: string) =>
    audit
      .filter((a) => a.action === action)
      .map((a) => a.barcode)
      .sort();
  expect(audited("CREATE")).toEqual([...file.created].sort());
  expect(audited("UPDATE")).toEqual([...file.updated].sort());
  expect(audit.length).toBe(file.created.length + file.updated.length);

  const stock = await query<{ barcode: string; quantity_before: number; quantity_after: number; transaction_type: string; n: number }>(
    `select barcode, quantity_before, quantity_after, transaction_type, count(*) over (partition by product_id)::int as n
     from quantity_audit where notes = 'CSV import' and barcode like $1`,
    [`${prefix}-%`],
  );
  expect(stock.length).toBe(file.stockChanges.size);
  const wrongStock = stock.filter((s) => {
    const want = file.stockChanges.get(s.barcode);
    return (
      !want ||
      Number(s.n) !== 1 ||
      s.transaction_type !== "import" ||
      Number(s.quantity_before) !== want.before ||
      Number(s.quantity_after) !== want.after
    );
  });
  expect(wrongStock.slice(0, 5)).toEqual([]);

  const [job] = await query<{
    status: string;
    rows: number;
    processed: number;
    created: number;
    updated: number;
    skipped: number;
    error_count: number;
  }>(`select status, rows, processed, created, updated, skipped, error_count from imports where id = $1`, [importId]);
  expect(job).toEqual({
    status: "done",
    rows: file.rows.length,
    processed: file.rows.length,
    created: file.created.length,
    updated: file.updated.length,
    skipped: file.rows.length - file.created.length - file.updated.length,
    error_count: file.duplicateErrors.length,
  });
  const [left] = await query<{ chunks: number; errors: number }>(
    `select (select count(*)::int from import_chunks where import_id = $1) as chunks,
            (select count(*)::int from import_errors where import_id = $1) as errors`,
    [importId],
  );
  expect(left).toEqual({ chunks: 0, errors: file.duplicateErrors.length });
}

/** No batch failed (and was tried again) and no import failed in these processes (their logs, at warn and above). */
export function expectNoImportFailures(...servers: ServerProcess[]): void {
  for (const server of servers) {
    const failures = server.output
      .join("")
      .split("\n")
      .filter((line) => /import (batch )?failed/.test(line));
    expect(failures).toEqual([]);
  }
}

/** The result GET .../jobs/{id} answers once the import is done. */
export function expectResult(job: ImportJob, file: MixedImport): void {
  expect(job.status, job.error).toBe("done");
  expect(job.processed).toBe(file.rows.length);
  expect(job.received).toBe(file.rows.length);
  expect(job.result).toEqual({
    created: file.created.length,
    updated: file.updated.length,
    skipped: file.rows.length - file.created.length - file.updated.length,
    errors: file.duplicateErrors,
    import_id: job.id,
  });
}

/** A product the taps hit, and how many taps on it were answered 200. */
interface Tapped {
  barcode: string;
  id: number;
  taps: number;
}

export interface TapsDuringImport {
  prefix: string;
  /** Rows carried the export's updated_at (the merge): the import leaves the stock as it is. */
  merge: boolean;
  importId: string;
  job: ImportJob;
  tapped: Tapped[];
  /** Every tap's HTTP status. */
  statuses: number[];
  fillerRows: number;
}

export const TAPPED_PRODUCTS = 30;
export const TAPPED_START_STOCK = 500;

export interface TapsOptions {
  /** New products in the file, around the tapped products' rows. */
  fillerRows: number;
  /** Taps in flight at once. */
  tappers: number;
  /** A pause between one tapper's taps (a person at a till: the embedded database's runner yields to queued requests). */
  thinkMs: number;
  settleMs: number;
}

/**
 * Taps (-1, "Sold") on 30 products, through every server of `tappers` in turn, from before an
 * import starts until after it ends; the import (staged on `importer`, committed there) creates
 * `fillerRows` products and, among them, changes the price and location of the 30 tapped ones. `merge`:
 * its rows for them carry the export's updated_at (and the exported stock), else no updated_at and
 * the stock they had before the taps (the spec then sets it: not asserted, see expectTapsExact).
 */
export async function tapsDuringImport(
  importer: ServerProcess,
  tappers: ServerProcess[],
  cookie: string,
  merge: boolean,
  options: TapsOptions,
): Promise<TapsDuringImport> {
  const { fillerRows } = options;
  const prefix = uniquePrefix(merge ? "TAPM" : "TAPP");
  const product = (i: number): Row => ({
    barcode: `${prefix}-T-${i}`,
    product_name: `Tapped Card ${i}`,
    vendor: "Topps",
    quantity_on_hand: String(TAPPED_START_STOCK),
    price: "5.00",
    location: "Front case",
  });
  const setup = await importInOneCall(
    importer,
    cookie,
    Array.from({ length: TAPPED_PRODUCTS }, (_, i) => product(i)),
  );
  expect(setup).toMatchObject({ created: TAPPED_PRODUCTS, updated: 0, errors: [] });
  const exported = await productsByBarcode(importer, cookie);
  const tapped: Tapped[] = Array.from({ length: TAPPED_PRODUCTS }, (_, i) => {
    const p = exported.get(`${prefix}-T-${i}`);
    if (!p) throw new Error(`${prefix}-T-${i} was not created`);
    return { barcode: p.barcode, id: p.id, taps: 0 };
  });

  // The tapped products' rows spread over the file, between new products.
  const rows: Row[] = [];
  const every = Math.floor(fillerRows / TAPPED_PRODUCTS);
  for (let i = 0; i < fillerRows; i++) {
    rows.push({ barcode: `${prefix}-F-${i}`, product_name: `Filler Card ${i}`, vendor: "Panini", quantity_on_hand: "1" });
    const k = (i + 1) / every - 1;
    const p = Number.isInteger(k) ? exported.get(`${prefix}-T-${k}`) : undefined;
    if (p) rows.push({ ...product(k), price: "7.50", location: "Back room", ...(merge ? { updated_at: p.updated_at } : {}) });
  }
  expect(rows.length).toBe(fillerRows + TAPPED_PRODUCTS);
  const importId = await stageImport([importer], cookie, rows, 500);

  const statuses: number[] = [];
  let tapping = true;
  const loops = Array.from({ length: options.tappers }, async (_, loop) => {
    for (let n = 0; tapping; n++) {
      const target = tapped[(loop * 7 + n * 3) % tapped.length] as Tapped;
      const server = tappers[(loop + n) % tappers.length] as ServerProcess;
      const status = await tap(server, cookie, target.id);
      statuses.push(status);
      if (status === 200) target.taps++;
      if (options.thinkMs > 0) await sleep(options.thinkMs);
    }
  });
  await sleep(300);
  const tapsBefore = statuses.length;
  await commitImport(importer, cookie, importId);
  const job = await settled(importer, cookie, importId, options.settleMs);
  const tapsDuring = statuses.length - tapsBefore;
  await sleep(300);
  tapping = false;
  await Promise.all(loops);
  expect(tapsDuring, "taps answered while the import ran").toBeGreaterThan(0);
  return { prefix, merge, importId, job, tapped, statuses, fillerRows };
}

/**
 * Every tap answered 200 and counted exactly once: in the stock (merge: start - taps, the import
 * left the stock alone) and in quantity_audit (one 'adjustment' row per tap). Without the merge,
 * the import may set the stock back to the file's value (as the spec says): then the audit trail
 * still accounts for every change, each row starting where the one before it ended.
 */
export async function expectTapsExact(query: Query, s: TapsDuringImport): Promise<void> {
  expect(s.statuses.filter((status) => status !== 200)).toEqual([]);
  expect(s.job.status, s.job.error).toBe("done");
  expect(s.job.result).toMatchObject({ created: s.fillerRows, updated: TAPPED_PRODUCTS });
  expect(s.job.result?.errors).toEqual([]);

  const ids = s.tapped.map((t) => t.id);
  const products = await query<{ id: number; quantity_on_hand: number; price: number; location: string }>(
    `select id, quantity_on_hand, price, location from products where id = any($1::int[]) order by id`,
    [ids],
  );
  const stock = await query<{
    id: number;
    product_id: number;
    quantity_change: number;
    quantity_before: number;
    quantity_after: number;
    transaction_type: string;
    notes: string;
  }>(
    `select id::int, product_id, quantity_change, quantity_before, quantity_after, transaction_type, notes
     from quantity_audit where product_id = any($1::int[]) order by id`,
    [ids],
  );
  const audit = await query<{ id: number; product_id: number; action: string; import_id: string | null; changed_fields: string[] }>(
    `select id::int, product_id, action, import_id::text, changed_fields from product_audit where product_id = any($1::int[]) order by id`,
    [ids],
  );

  let interleaved = 0;
  for (const t of s.tapped) {
    const p = products.find((x) => x.id === t.id);
    const rows = stock.filter((q) => q.product_id === t.id);
    const adjustments = rows.filter((q) => q.transaction_type === "adjustment");
    expect(adjustments.length, t.barcode).toBe(t.taps);
    expect(adjustments.every((q) => q.quantity_change === -1 && q.notes === "Sold")).toBe(true);
    expect(p?.price).toBe(750);
    expect(p?.location).toBe("Back room");
    const byImport = audit.filter((a) => a.product_id === t.id && a.import_id === s.importId);
    expect(byImport.length, t.barcode).toBe(1);
    if (s.merge) {
      // The taps' stock, exactly: the import changed only what its file changed since the export.
      expect(p?.quantity_on_hand, t.barcode).toBe(TAPPED_START_STOCK - t.taps);
      expect([...(byImport[0]?.changed_fields ?? [])].sort()).toEqual(["location", "price"]);
      expect(rows.filter((q) => q.transaction_type === "import").length, t.barcode).toBe(1); // its creation only
    }
    // The trail accounts for every change: each row starts where the one before it ended, and the last ends at the stock.
    expect(rows[0]).toMatchObject({ transaction_type: "import", quantity_before: 0, quantity_after: TAPPED_START_STOCK });
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]?.quantity_before, `${t.barcode} row ${i}`).toBe(rows[i - 1]?.quantity_after);
      expect((rows[i]?.quantity_after ?? 0) - (rows[i]?.quantity_before ?? 0)).toBe(rows[i]?.quantity_change);
    }
    expect(rows.at(-1)?.quantity_after, t.barcode).toBe(p?.quantity_on_hand);
    // Taps landed on both sides of the import's change to this product.
    const at = byImport[0]?.id ?? 0;
    const tapsAudit = audit.filter((a) => a.product_id === t.id && a.action === "QUANTITY_SUBTRACT");
    if (tapsAudit.some((a) => a.id < at) && tapsAudit.some((a) => a.id > at)) interleaved++;
  }
  expect(interleaved, "products tapped both before and after the import changed them").toBeGreaterThan(0);
}
