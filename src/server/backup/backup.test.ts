import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";
import { testConfig } from "../test/config.js";
import { createUser, loginAs } from "../test/factories.js";
import { adminQuery, POSTGRES_URL } from "../test/server-processes.js";
import { migratedDataDir } from "../test/templates.js";
import { BackupError, backupDataDir, restoreDataDir } from "./embedded-backup.js";
import { backupPostgres, restorePostgres } from "./postgres-backup.js";

/** Backups taken from a real database and restored into another, served by the real app. */

const SLOW = { timeout: 180_000 };
const dirs: string[] = [];
const databases: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const name of databases) await adminQuery(`drop database if exists "${name}" with (force)`);
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "blez-backup-"));
  dirs.push(dir);
  return dir;
}
/** A data folder with a migrated, empty database (as a server's first start leaves it). */
function migratedDir(): string {
  const dir = migratedDataDir("blez-backup-");
  dirs.push(dir);
  return dir;
}

/** The permission bits of a file (a backup holds password hashes and webhook secrets: 0600). */
const modeOf = (file: string) => statSync(file).mode & 0o777;
/** A file readable by everyone, whatever the umask. */
function leaveReadable(file: string): void {
  writeFileSync(file, "left over");
  chmodSync(file, 0o644);
}

async function served<T>(database: Database, work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await buildApp({ config: testConfig(), database, serveClient: false });
  try {
    await app.ready();
    return await work(app);
  } finally {
    await app.close();
    await database.close();
  }
}

/** A shop with a user, products, stock changes and their audit trail, made through the API. */
async function fillShop(app: FastifyInstance) {
  const manager = await createUser(app.db, { role: "manager" });
  const cookie = await loginAs(app, manager.username);
  for (const n of [1, 2, 3]) {
    const res = await app.inject({
      method: "POST",
      url: "/api/products",
      headers: { cookie },
      payload: { barcode: `BK-${n}`, product_name: `Backup Card ${n}`, vendor: "Topps", quantity_on_hand: 10 * n },
    });
    expect(res.statusCode).toBe(201);
    const sold = await app.inject({
      method: "PUT",
      url: `/api/products/${res.json().id}/quantity`,
      headers: { cookie },
      payload: { quantity_change: -1, reason: "sold" },
    });
    expect(sold.statusCode).toBe(200);
  }
  return { username: manager.username };
}

/** What a shop serves: its products, users and audit trail, as the API answers them. */
async function shopView(app: FastifyInstance, username: string) {
  const cookie = await loginAs(app, username);
  const get = async (url: string) => (await app.inject({ method: "GET", url, headers: { cookie } })).json();
  const strip = (rows: Array<Record<string, unknown>>) => rows.map(({ timestamp: _t, ...rest }) => rest);
  return {
    products: await get("/api/products"),
    users: await get("/api/auth/users"),
    productAudit: strip(await get("/api/audit/products")),
    quantityAudit: strip(await get("/api/audit/quantity")),
  };
}

describe("embedded database backups", () => {
  it("restore into a new folder serves the same products, users and audit trail; over a database only when forced", SLOW, async () => {
    const dataDir = migratedDir();
    const file = join(freshDir(), "shop.tar.gz");
    const { username, before } = await served(await openPglite(dataDir), async (app) => {
      const shop = await fillShop(app);
      return { username: shop.username, before: await shopView(app, shop.username) };
    });
    // Each product: its creation and a sale, each in both audit trails.
    const contents = { users: 1, products: 3, auditEntries: 12 };
    // A partial file an earlier run left, readable by all: the backup is still its owner's only.
    leaveReadable(`${file}.partial`);
    expect(await backupDataDir(dataDir, file)).toEqual(contents);
    expect(modeOf(file)).toBe(0o600);

    const restoredDir = join(freshDir(), "restored");
    const restored = await restoreDataDir(restoredDir, file);
    expect(restored).toEqual({ summary: contents, movedAside: undefined });
    const after = await served(await openPglite(restoredDir), async (app) => {
      const view = await shopView(app, username);
      // A change after the restore, so the folder differs from the backup.
      await createUser(app.db, { username: "after_restore" });
      return view;
    });
    expect(after).toEqual(before);

    await expect(restoreDataDir(restoredDir, file)).rejects.toThrow(
      /already holds a database \(2 users, 3 products, 12 audit entries\).*--force/,
    );
    const forced = await restoreDataDir(restoredDir, file, { force: true });
    expect(forced.summary).toEqual(contents);
    expect(forced.movedAside && existsSync(join(forced.movedAside, "PG_VERSION"))).toBe(true);
    if (forced.movedAside) dirs.push(forced.movedAside);
  });

  it("refuses while a server uses the folder, and when there is nothing to back up or restore", SLOW, async () => {
    const dataDir = migratedDir();
    const running = await openPglite(dataDir);
    try {
      await expect(backupDataDir(dataDir, join(freshDir(), "x.tar.gz"))).rejects.toThrow(/Stop the server, then run the backup again/);
    } finally {
      await running.close();
    }
    await expect(backupDataDir(freshDir(), join(freshDir(), "x.tar.gz"))).rejects.toThrow(BackupError);
    await expect(restoreDataDir(freshDir(), join(freshDir(), "missing.tar.gz"))).rejects.toThrow(/No backup file/);
  });
});

describe("PostgreSQL backups (pg_dump, on the local PostgreSQL)", () => {
  async function newDatabase(): Promise<string> {
    const name = `blez_backup_${Date.now()}_${randomBytes(3).toString("hex")}`;
    await adminQuery(`create database "${name}"`);
    databases.push(name);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return url.toString();
  }

  it("pg_dump and pg_restore carry the shop over; a database with tables is replaced only when forced", SLOW, async () => {
    const sourceUrl = await newDatabase();
    const { username, before } = await served(await openPostgres(sourceUrl), async (app) => {
      const shop = await fillShop(app);
      return { username: shop.username, before: await shopView(app, shop.username) };
    });
    const file = join(freshDir(), "shop.dump");
    // A file of that name already there, readable by all: the dump written into it is its owner's only.
    leaveReadable(file);
    await backupPostgres(sourceUrl, file);
    expect(modeOf(file)).toBe(0o600);

    const emptyUrl = await newDatabase();
    await restorePostgres(emptyUrl, file);
    expect(await served(await openPostgres(emptyUrl), (app) => shopView(app, username))).toEqual(before);

    // A database a server already started on (its tables and first admin) is refused, then replaced.
    const usedUrl = await newDatabase();
    await served(await openPostgres(usedUrl), async (app) => {
      await createUser(app.db, { username: "someone_else" });
    });
    await expect(restorePostgres(usedUrl, file)).rejects.toThrow(/already has tables.*--force/);
    await restorePostgres(usedUrl, file, { force: true });
    expect(await served(await openPostgres(usedUrl), (app) => shopView(app, username))).toEqual(before);
    const client = new pg.Client({ connectionString: usedUrl });
    await client.connect();
    const { rows } = await client.query("select username from users order by id");
    await client.end();
    expect(rows.map((r) => r.username)).toEqual([username]);
  });
});
