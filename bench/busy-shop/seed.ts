import { expectStatus, login, parse, request } from "./http.js";
import { ADMIN } from "./servers.js";

/** The products of the catalogue and of the imports, generated (same rows for the API and the COPY baseline). */
export interface ProductRow {
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: number;
  quantity_on_hand: number;
  is_active: boolean;
}

const VENDORS = ["Topps", "Panini", "Upper Deck", "Bowman"];
export const IMPORT_CHUNK = 50_000;

export function catalogueRows(count: number): ProductRow[] {
  return Array.from({ length: count }, (_, i) => ({
    barcode: `BZ${String(i).padStart(10, "0")}`,
    product_name: `Busy Shop Card ${i}`,
    vendor: VENDORS[i % 4] as string,
    release_year: 1990 + (i % 35),
    // Everything in stock, so taps of -1 rarely meet "Insufficient stock".
    quantity_on_hand: 5 + (i % 50),
    is_active: true,
  }));
}

/**
 * The import run during the busy window: `count` rows, half of them updates of existing products
 * (spread over the catalogue: new vendor and stock), half new barcodes.
 */
export function busyImportRows(count: number, catalogueSize: number): ProductRow[] {
  const updates = Math.floor(count / 2);
  const step = Math.max(1, Math.floor(catalogueSize / updates));
  const rows = catalogueRows(catalogueSize);
  const out: ProductRow[] = [];
  for (let k = 0; k < updates; k++) {
    const row = rows[(k * step) % catalogueSize] as ProductRow;
    out.push({ ...row, vendor: `${row.vendor} Chrome`, quantity_on_hand: row.quantity_on_hand + 3 });
  }
  for (let k = 0; out.length < count; k++) {
    out.push({
      barcode: `BN${String(k).padStart(10, "0")}`,
      product_name: `Busy Shop New ${k}`,
      vendor: VENDORS[k % 4] as string,
      release_year: 2020 + (k % 6),
      quantity_on_hand: 1 + (k % 20),
      is_active: true,
    });
  }
  return out;
}

export interface Account {
  username: string;
  password: string;
}

export interface Accounts {
  admin: Account;
  streamer: Account;
  inventory: Account;
  viewers: Account[];
}

/** One streamer (taps), one inventory user (edits, import) and `viewerCount` users whose sockets watch. */
export async function createAccounts(base: string, viewerCount: number): Promise<Accounts> {
  const adminCookie = await login(base, ADMIN.username, ADMIN.password);
  const create = async (username: string, role: string): Promise<Account> => {
    const account = { username, password: `${username}-password` };
    expectStatus(
      await request(`${base}/api/auth/users`, { method: "POST", headers: { cookie: adminCookie }, json: { ...account, role } }),
      `create user ${username}`,
      201,
    );
    return account;
  };
  const streamer = await create("bench-streamer", "streamer");
  const inventory = await create("bench-inventory", "inventory");
  const viewers: Account[] = [];
  for (let i = 0; i < viewerCount; i++) viewers.push(await create(`bench-viewer-${i}`, i % 2 === 0 ? "streamer" : "inventory"));
  return { admin: ADMIN, streamer, inventory, viewers };
}

export interface ImportAnswer {
  ms: number;
  status: number;
  created: number;
  updated: number;
  skipped: number;
  errors: number;
}

/**
 * The body of `POST /api/products/import` for these rows, as UTF-8 bytes: sent as they are
 * (encoding a 10 MB string as it is sent held this process for 10-30 ms).
 */
export const importJson = (rows: ProductRow[]): Buffer => Buffer.from(JSON.stringify({ products: rows }));

/** `body`: the rows' body made beforehand (importJson), so that this process does not stall when the import starts. */
export async function postImport(base: string, cookie: string, rows: ProductRow[], body = importJson(rows)): Promise<ImportAnswer> {
  const answer = await request(`${base}/api/products/import`, {
    method: "POST",
    headers: { cookie },
    json: body,
    timeoutMs: 600_000,
  });
  expectStatus(answer, `import of ${rows.length} rows`, 200);
  const result = parse<{ created: number; updated: number; skipped: number; errors: string[] }>(answer);
  return { ms: answer.ms, status: answer.status, ...result, errors: result.errors.length };
}

/** The catalogue through POST /api/products/import in chunks of 50,000 (the API's limit); the chunks' times. */
export async function seedCatalogue(base: string, cookie: string, rows: ProductRow[]): Promise<ImportAnswer[]> {
  const answers: ImportAnswer[] = [];
  for (let offset = 0; offset < rows.length; offset += IMPORT_CHUNK) {
    const answer = await postImport(base, cookie, rows.slice(offset, offset + IMPORT_CHUNK));
    if (answer.created !== Math.min(IMPORT_CHUNK, rows.length - offset)) throw new Error(`seed: unexpected ${JSON.stringify(answer)}`);
    answers.push(answer);
  }
  return answers;
}
