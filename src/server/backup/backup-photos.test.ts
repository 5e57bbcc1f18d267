import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import type { Photo } from "../../contract/photos.js";
import type { Product } from "../../contract/products.js";
import { buildApp } from "../app.js";
import type { Config } from "../config.js";
import { type Database, openPglite, openPostgres } from "../db/client.js";
import { listMedia } from "../modules/photos/media-store.js";
import { testConfig } from "../test/config.js";
import { signedIn } from "../test/factories.js";
import { plainPng, uploadPhoto } from "../test/photo-files.js";
import { adminQuery, POSTGRES_URL } from "../test/server-processes.js";
import { migratedDataDir } from "../test/templates.js";
import { backupDataDir } from "./embedded-backup.js";
import { holdPhotoFiles } from "./postgres-backup.js";
import { backupShop, restoreShop } from "./shop-backup.js";
import { extractTarEntry, listTar, type TarEntry } from "./tar.js";

/** Backups carry the photos: backed up with the database, restored into a new folder or database, served again. */

const SLOW = { timeout: 180_000 };
const ROOT = join(import.meta.dirname, "../../..");
const dirs: string[] = [];
const databases: string[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const name of databases) await adminQuery(`drop database if exists "${name}" with (force)`);
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "blez-backup-photos-"));
  dirs.push(dir);
  return dir;
}
/** A data folder with a migrated, empty database (as a server's first start leaves it). */
function migratedDir(): string {
  const dir = migratedDataDir("blez-backup-photos-");
  dirs.push(dir);
  return dir;
}

async function served<T>(database: Database, config: Partial<Config>, work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await buildApp({ config: testConfig(config), database, serveClient: false });
  try {
    await app.ready();
    return await work(app);
  } finally {
    await app.close();
    await database.close();
  }
}

/** A product with two photos, added through the API; its id and the photos. */
async function shopWithPhotos(app: FastifyInstance) {
  const { cookie } = await signedIn(app, "manager");
  const res = await app.inject({
    method: "POST",
    url: "/api/products",
    headers: { cookie },
    payload: { barcode: "PHOTO-BK-1", product_name: "Backed Up Card", vendor: "Topps" },
  });
  const product = res.json<Product>();
  const photos: Photo[] = [];
  for (const colour of ["#aa3300", "#0033aa"]) {
    const added = await uploadPhoto(app, cookie, product.id, await plainPng(colour, 300, 200));
    expect(added.statusCode).toBe(201);
    photos.push(added.json<{ photo: Photo }>().photo);
  }
  return { productId: product.id, photos };
}

/** The permission bits of a file (a backup holds password hashes and webhook secrets: 0600). */
const modeOf = (file: string) => statSync(file).mode & 0o777;
/** The mode an entry's tar header gives it (what a tar tool extracts it with). */
function entryMode(file: string, entry: TarEntry): number {
  const header = Buffer.alloc(8);
  const fd = openSync(file, "r");
  try {
    readSync(fd, header, 0, 8, entry.offset - 512 + 100);
  } finally {
    closeSync(fd);
  }
  return Number.parseInt(header.toString("ascii").replace(/\0.*$/s, ""), 8);
}
/** A partial file an earlier run left beside the target, readable by all. */
function leavePartial(file: string): void {
  writeFileSync(`${file}.partial`, "left over");
  chmodSync(`${file}.partial`, 0o644);
}
/** Where a photo URL's file is in a media folder. */
const fileOf = (mediaDir: string, url: string) => {
  const name = url.split("/").pop() as string;
  return join(mediaDir, name.slice(0, 2), name);
};
/** Takes a photo off its product through the API. */
async function removePhoto(app: FastifyInstance, productId: number, photo: Photo) {
  const { cookie } = await signedIn(app, "manager");
  const res = await app.inject({ method: "DELETE", url: `/api/products/${productId}/photos/${photo.id}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
}

/** The product's photos as the restored shop lists them, and each file's bytes as it serves them. */
async function servedPhotos(app: FastifyInstance) {
  const { cookie } = await signedIn(app, "streamer");
  const product = (await app.inject({ method: "GET", url: "/api/products/barcode/PHOTO-BK-1", headers: { cookie } })).json<Product>();
  const files: Record<string, string> = {};
  for (const photo of product.photos) {
    for (const url of [photo.url, photo.thumbnail_url]) {
      const res = await app.inject({ method: "GET", url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      files[url] = res.rawPayload.toString("base64");
    }
  }
  return { photos: product.photos, files };
}

describe("embedded database backups with photos", () => {
  it("npm run backup and restore carry the photos in DATA_DIR/media into a new folder, stored once in the file", SLOW, async () => {
    const dataDir = migratedDir();
    const before = await served(await openPglite(dataDir), { DATA_DIR: dataDir }, async (app) => {
      await shopWithPhotos(app);
      return servedPhotos(app);
    });
    expect(before.photos).toHaveLength(2);
    expect(await listMedia(join(dataDir, "media"))).toHaveLength(4);

    const file = join(freshDir(), "shop.tar");
    const run = (command: string, env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "src/server/backup/cli.ts", command, file], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: "", MEDIA_DIR: "", ...env },
      });
    leavePartial(file);
    const backedUp = await run("backup", { DATA_DIR: dataDir });
    expect(backedUp.stdout).toMatch(/\d users, 1 products, \d+ audit entries, 4 photo files\)/);
    expect(modeOf(file)).toBe(0o600);

    // The photos are in the file once: under media/, not again inside the database's archive.
    const entries = await listTar(file);
    expect(entries.map((e) => e.name).filter((n) => n.startsWith("media/"))).toHaveLength(4);
    expect(new Set(entries.map((e) => entryMode(file, e)))).toEqual(new Set([0o600]));
    const databaseEntry = entries.find((e) => e.name === "database.tar.gz");
    if (!databaseEntry) throw new Error("no database in the backup");
    const archive = join(freshDir(), "database.tar.gz");
    await extractTarEntry(file, databaseEntry, archive);
    const inner = join(freshDir(), "database.tar");
    writeFileSync(inner, gunzipSync(readFileSync(archive)));
    const innerNames = (await listTar(inner)).map((e) => e.name);
    expect(innerNames.some((n) => n.endsWith("PG_VERSION"))).toBe(true);
    expect(innerNames.some((n) => n.includes("media/"))).toBe(false);

    const restoredDir = join(freshDir(), "restored");
    const restored = await run("restore", { DATA_DIR: restoredDir });
    expect(restored.stdout).toMatch(/4 photo files\)/);
    const after = await served(await openPglite(restoredDir), { DATA_DIR: restoredDir }, servedPhotos);
    expect(after).toEqual(before);
  });

  it("a photo removed after a backup (its files deleted) comes back with the backup's restore", SLOW, async () => {
    const dataDir = migratedDir();
    const mediaDir = join(dataDir, "media");
    const before = await served(await openPglite(dataDir), { DATA_DIR: dataDir }, async (app) => {
      await shopWithPhotos(app);
      return servedPhotos(app);
    });
    const file = join(freshDir(), "shop.tar");
    expect(await backupShop({ dataDir, mediaDir }, file)).toMatchObject({ photoFiles: 4 });
    const removed = before.photos[0] as Photo;
    await served(await openPglite(dataDir), { DATA_DIR: dataDir }, async (app) => {
      const { cookie } = await signedIn(app, "streamer");
      const product = (await app.inject({ method: "GET", url: "/api/products/barcode/PHOTO-BK-1", headers: { cookie } })).json<Product>();
      await removePhoto(app, product.id, removed);
      expect((await app.inject({ method: "GET", url: removed.url, headers: { cookie } })).statusCode).toBe(404);
    });
    expect([existsSync(fileOf(mediaDir, removed.url)), existsSync(fileOf(mediaDir, removed.thumbnail_url))]).toEqual([false, false]);

    const restored = await restoreShop({ dataDir, mediaDir }, file, { force: true });
    if (restored.movedAside) dirs.push(restored.movedAside);
    expect(restored).toMatchObject({ photoFiles: 4 });
    expect(await served(await openPglite(dataDir), { DATA_DIR: dataDir }, servedPhotos)).toEqual(before);
  });

  it("a backup from before photos (the bare .tar.gz) still restores; a bundle is refused on the wrong database", SLOW, async () => {
    const dataDir = migratedDir();
    await served(await openPglite(dataDir), { DATA_DIR: dataDir }, async (app) => shopWithPhotos(app));
    // A backup as written before photos: the bare .tar.gz of the database.
    const old = join(freshDir(), "shop-before-photos.tar.gz");
    await backupDataDir(dataDir, old, { leaveOut: ["media"] });
    const restoredOld = await restoreShop({ dataDir: join(freshDir(), "restored"), mediaDir: freshDir() }, old);
    expect(restoredOld).toMatchObject({ database: "embedded", photoFiles: 0, summary: { products: 1 } });

    const file = join(freshDir(), "shop.tar");
    await backupShop({ dataDir, mediaDir: join(dataDir, "media") }, file);
    await expect(restoreShop({ databaseUrl: POSTGRES_URL, dataDir, mediaDir: freshDir() }, file)).rejects.toThrow(/unset DATABASE_URL/);
    await expect(restoreShop({ dataDir: freshDir(), mediaDir: freshDir() }, join(ROOT, "package.json"))).rejects.toThrow(
      /not a backup written by npm run backup/,
    );
  });
});

describe("PostgreSQL backups with photos", () => {
  async function newDatabase(): Promise<string> {
    const name = `blez_backup_photos_${Date.now()}_${randomBytes(3).toString("hex")}`;
    await adminQuery(`create database "${name}"`);
    databases.push(name);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return url.toString();
  }

  it("restored into a new database and a new MEDIA_DIR, the shop serves the same photos", SLOW, async () => {
    const sourceUrl = await newDatabase();
    const mediaDir = freshDir();
    const before = await served(await openPostgres(sourceUrl), { MEDIA_DIR: mediaDir }, async (app) => {
      await shopWithPhotos(app);
      return servedPhotos(app);
    });
    const file = join(freshDir(), "shop.tar");
    leavePartial(file);
    const outcome = await backupShop({ databaseUrl: sourceUrl, dataDir: freshDir(), mediaDir }, file);
    expect(outcome).toMatchObject({ database: "postgres", photoFiles: 4 });
    expect(modeOf(file)).toBe(0o600);

    const emptyUrl = await newDatabase();
    const newMedia = join(freshDir(), "media");
    expect(await restoreShop({ databaseUrl: emptyUrl, dataDir: freshDir(), mediaDir: newMedia }, file)).toMatchObject({ photoFiles: 4 });
    expect(await listMedia(newMedia)).toEqual(await listMedia(mediaDir));
    expect(await served(await openPostgres(emptyUrl), { MEDIA_DIR: newMedia }, servedPhotos)).toEqual(before);
    await expect(restoreShop({ dataDir: freshDir(), mediaDir: freshDir() }, file)).rejects.toThrow(/set DATABASE_URL/);
  });

  it("while a backup runs, removed photos' files stay until it ends; an older backup brings them back", SLOW, async () => {
    const url = await newDatabase();
    const mediaDir = freshDir();
    const location = { databaseUrl: url, dataDir: freshDir(), mediaDir };
    const { productId, before } = await served(await openPostgres(url), { MEDIA_DIR: mediaDir }, async (app) => {
      const { productId } = await shopWithPhotos(app);
      return { productId, before: await servedPhotos(app) };
    });
    const file = join(freshDir(), "shop.tar");
    await backupShop(location, file);
    const [first, second] = before.photos as [Photo, Photo];
    const onDisk = (photo: Photo) => [existsSync(fileOf(mediaDir, photo.url)), existsSync(fileOf(mediaDir, photo.thumbnail_url))];

    await served(await openPostgres(url), { MEDIA_DIR: mediaDir }, async (app) => {
      // What a backup holds from before its dump until its last file is copied.
      const letGo = await holdPhotoFiles(url);
      try {
        await removePhoto(app, productId, first);
        expect(onDisk(first)).toEqual([true, true]);
      } finally {
        await letGo();
      }
      // Put off, not forgotten: deleted once the backup ended.
      await expect.poll(() => onDisk(first), { timeout: 10_000, interval: 200 }).toEqual([false, false]);
      // Without a backup running, at once.
      await removePhoto(app, productId, second);
      expect(onDisk(second)).toEqual([false, false]);
    });

    const restored = await restoreShop(location, file, { force: true });
    expect(restored).toMatchObject({ photoFiles: 4 });
    expect(await served(await openPostgres(url), { MEDIA_DIR: mediaDir }, servedPhotos)).toEqual(before);
  });
});
