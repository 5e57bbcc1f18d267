import { existsSync } from "node:fs";
import { mkdir, mkdtemp, open, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { MEDIA_NAME } from "../../contract/photos.js";
import { listMedia } from "../modules/photos/media-store.js";
import { BackupError, backupDataDir, type DatabaseSummary, restoreDataDir } from "./embedded-backup.js";
import { backupPostgres, holdPhotoFiles, restorePostgres } from "./postgres-backup.js";
import { extractTarEntry, isTarHeader, listTar, readTarEntry, TarWriter } from "./tar.js";

/**
 * `npm run backup` and `restore`: one file with the database and the photos. The file is a tar
 * holding the database as its own tool writes it (the embedded database's .tar.gz, or pg_dump's
 * custom format as `database.dump`), every photo file under `media/`, and last `blez-backup.json`
 * (what it is, with the number of photo files it holds). Backups from before photos (the bare
 * .tar.gz or pg_dump file) still restore.
 */

const MANIFEST = "blez-backup.json";
const FORMAT = "blez-backup";
const DATABASE_ENTRY = { embedded: "database.tar.gz", postgres: "database.dump" } as const;
type DatabaseKind = keyof typeof DATABASE_ENTRY;

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  database: DatabaseKind;
  created_at: string;
  photo_files: number;
}

/** Where the shop's data lives: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded), and MEDIA_DIR. */
export interface ShopLocation {
  databaseUrl?: string;
  dataDir: string;
  mediaDir: string;
}

export interface BackupOutcome {
  database: DatabaseKind;
  /** The embedded database's counts (PostgreSQL's backup does not count). */
  summary?: DatabaseSummary;
  /** Photo files written or restored (each photo has two: the picture and its thumbnail). */
  photoFiles: number;
  /** A forced embedded restore: where the replaced database's files went. */
  movedAside?: string;
}

/** The top-level folder of DATA_DIR that MEDIA_DIR is, when it is inside it (the default DATA_DIR/media). */
function mediaInsideDataDir(location: ShopLocation): string[] {
  const inside = relative(resolve(location.dataDir), resolve(location.mediaDir));
  if (!inside || inside.startsWith("..") || resolve(inside) === inside) return [];
  return [inside.split(sep)[0] as string];
}

/**
 * Writes the database and the photos to `file` (0600: it holds password hashes and webhook
 * secrets). On PostgreSQL the servers may be running: the photo files stay put
 * (holdPhotoFiles) from before the dump until the last one is copied, so every file the dump
 * names is in the backup.
 */
export async function backupShop(location: ShopLocation, file: string): Promise<BackupOutcome> {
  const target = resolve(file);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  // mkdtemp makes the folder 0700: the database's file on the way is its owner's only, like the backup.
  const work = await mkdtemp(join(tmpdir(), "blez-backup-"));
  const letGo = location.databaseUrl ? await holdPhotoFiles(location.databaseUrl) : undefined;
  try {
    const database: DatabaseKind = location.databaseUrl ? "postgres" : "embedded";
    const databaseFile = join(work, DATABASE_ENTRY[database]);
    let summary: DatabaseSummary | undefined;
    if (location.databaseUrl) await backupPostgres(location.databaseUrl, databaseFile);
    else summary = await backupDataDir(location.dataDir, databaseFile, { leaveOut: mediaInsideDataDir(location) });

    // Listed after the dump: every file it names is there (a photo's files are stored before the
    // change that adds it commits, and none is deleted meanwhile). Written whole under its name, so each is complete.
    const media = await listMedia(location.mediaDir);
    // Written beside the target and renamed: a failed backup never leaves half a file under its name.
    const partial = `${target}.partial`;
    const tar = await TarWriter.create(partial);
    let photoFiles = 0;
    try {
      await tar.addFile(DATABASE_ENTRY[database], databaseFile);
      for (const path of media) {
        // A file deleted since it was listed (no product showed it any more) is left out.
        if (await tar.addFile(`media/${path}`, join(location.mediaDir, path), { missingOk: true })) photoFiles += 1;
      }
      const manifest: Manifest = { format: FORMAT, version: 1, database, created_at: new Date().toISOString(), photo_files: photoFiles };
      await tar.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      await tar.close();
    } catch (err) {
      await tar.abandon();
      await rm(partial, { force: true });
      throw err;
    }
    await rename(partial, target);
    return { database, summary, photoFiles };
  } finally {
    await letGo?.();
    await rm(work, { recursive: true, force: true });
  }
}

/** What kind of file a backup is, from its first bytes. */
async function backupKind(file: string): Promise<"bundle" | "embedded" | "postgres"> {
  const handle = await open(file, "r");
  const first = Buffer.alloc(512);
  try {
    await handle.read(first, 0, 512, 0);
  } finally {
    await handle.close();
  }
  if (first[0] === 0x1f && first[1] === 0x8b) return "embedded";
  if (first.toString("ascii", 0, 5) === "PGDMP") return "postgres";
  if (isTarHeader(first)) return "bundle";
  throw new BackupError(`${file} is not a backup written by npm run backup.`);
}

const WRONG_DATABASE: Record<DatabaseKind, string> = {
  embedded: "This is a backup of the embedded database: unset DATABASE_URL to restore it into DATA_DIR.",
  postgres: "This is a backup of a PostgreSQL database: set DATABASE_URL to the database to restore it into.",
};

/**
 * Restores the database (refused when it already holds one, unless `force`: see
 * restoreDataDir and restorePostgres), then the photos into MEDIA_DIR: files named by their
 * content, so one already there is the same picture and is kept.
 */
export async function restoreShop(location: ShopLocation, file: string, opts: { force?: boolean } = {}): Promise<BackupOutcome> {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupError(`No backup file at ${source}.`);
  const kind = await backupKind(source);
  const here: DatabaseKind = location.databaseUrl ? "postgres" : "embedded";
  if (kind !== "bundle") {
    if (kind !== here) throw new BackupError(WRONG_DATABASE[kind]);
    return { ...(await restoreDatabase(location, source, opts)), photoFiles: 0 };
  }

  const entries = await listTar(source);
  const manifestEntry = entries.find((e) => e.name === MANIFEST);
  const manifest = manifestEntry
    ? (JSON.parse((await readTarEntry(source, manifestEntry)).toString("utf8")) as Partial<Manifest>)
    : undefined;
  if (manifest?.format !== FORMAT || (manifest.database !== "embedded" && manifest.database !== "postgres")) {
    throw new BackupError(`${source} is not a backup written by npm run backup.`);
  }
  if (manifest.database !== here) throw new BackupError(WRONG_DATABASE[manifest.database]);
  const databaseEntry = entries.find((e) => e.name === DATABASE_ENTRY[here]);
  if (!databaseEntry) throw new BackupError(`${source} holds no database.`);

  const work = await mkdtemp(join(tmpdir(), "blez-restore-"));
  try {
    const databaseFile = join(work, DATABASE_ENTRY[here]);
    await extractTarEntry(source, databaseEntry, databaseFile);
    const restored = await restoreDatabase(location, databaseFile, opts);
    let photoFiles = 0;
    for (const entry of entries) {
      const match = /^media\/([0-9a-f]{2})\/([^/]+)$/.exec(entry.name);
      if (!match || !MEDIA_NAME.test(match[2] as string) || !(match[2] as string).startsWith(match[1] as string)) continue;
      const folder = join(location.mediaDir, match[1] as string);
      const path = join(folder, match[2] as string);
      photoFiles += 1;
      if (existsSync(path)) continue;
      await mkdir(folder, { recursive: true });
      const partial = join(folder, `.${match[2]}.restore.partial`);
      // Photos readable like the files the server stores (0644), for a server running as another user than the restore.
      await extractTarEntry(source, entry, partial, 0o644);
      await rename(partial, path);
    }
    return { ...restored, photoFiles };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function restoreDatabase(
  location: ShopLocation,
  file: string,
  opts: { force?: boolean },
): Promise<Omit<BackupOutcome, "photoFiles">> {
  if (location.databaseUrl) {
    await restorePostgres(location.databaseUrl, file, opts);
    return { database: "postgres" };
  }
  const { summary, movedAside } = await restoreDataDir(location.dataDir, file, opts);
  return { database: "embedded", summary, movedAside };
}
