import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type DataDirLock, lockDataDir } from "../db/embedded/data-dir-lock.js";
import { PRIVATE_FILE } from "./tar.js";

/**
 * Backups of the embedded database: the whole data folder as PGlite writes it (dumpDataDir, a
 * gzipped tarball), restored by PGlite itself (loadDataDir): a complete copy, schema, data and
 * migration history, that opens as it was. (@electric-sql/pglite-tools' SQL dump pins another
 * PGlite version than ours, and the PostgreSQL tools installed here cannot read PGlite's
 * PostgreSQL 17.) Taken and restored while no server uses the folder.
 */

/** What a database holds, to show after a backup or a restore. */
export interface DatabaseSummary {
  users: number;
  products: number;
  auditEntries: number;
}

export class BackupError extends Error {}

/** The file PostgreSQL (and PGlite) keeps in every data folder. */
const holdsDatabase = (dataDir: string) => existsSync(join(dataDir, "PG_VERSION"));
const LOCK_FILE = "blez-server.lock";

/** The folder, locked against a server starting on it meanwhile; a running server's lock refuses with a clear message. */
async function lockForTool(dataDir: string, what: string): Promise<DataDirLock> {
  try {
    return await lockDataDir(dataDir);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new BackupError(`${message.replace(/\.? Stop that server first.*$/, "")}. Stop the server, then run the ${what} again.`);
  }
}

async function summarise(db: PGlite): Promise<DatabaseSummary> {
  const count = async (table: string) => {
    const exists = await db.query<{ t: string | null }>("select to_regclass($1) as t", [`public.${table}`]);
    if (!exists.rows[0]?.t) return 0;
    return (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n ?? 0;
  };
  return {
    users: await count("users"),
    products: await count("products"),
    auditEntries: (await count("product_audit")) + (await count("quantity_audit")),
  };
}

/**
 * Writes a backup of the embedded database in `dataDir` to `file` (a .tar.gz). `leaveOut`: folders
 * of `dataDir` that are not the database's (the photos in DATA_DIR/media, which a backup carries
 * beside it): PGlite's dump takes every file of the folder into memory, so when one of them is
 * there the database's files are copied without it to a temporary folder and dumped from there.
 */
export async function backupDataDir(dataDir: string, file: string, opts: { leaveOut?: string[] } = {}): Promise<DatabaseSummary> {
  if (!holdsDatabase(dataDir)) throw new BackupError(`There is no embedded database in ${resolve(dataDir)} (DATA_DIR).`);
  const lock = await lockForTool(dataDir, "backup");
  const leaveOut = new Set([...(opts.leaveOut ?? []), LOCK_FILE].map((entry) => join(resolve(dataDir), entry)));
  const copy = (opts.leaveOut ?? []).some((entry) => existsSync(join(dataDir, entry)))
    ? mkdtempSync(join(tmpdir(), "blez-backup-data-"))
    : undefined;
  try {
    if (copy) cpSync(resolve(dataDir), copy, { recursive: true, filter: (source) => !leaveOut.has(resolve(source)) });
    const db = await PGlite.create(copy ?? dataDir);
    try {
      const summary = await summarise(db);
      const archive = Buffer.from(await (await db.dumpDataDir("gzip")).arrayBuffer());
      mkdirSync(dirname(resolve(file)), { recursive: true });
      // Written beside the target and renamed: a failed backup never leaves half a file under its name.
      // Readable by its owner only (it holds password hashes and webhook secrets): made new, as a
      // partial an earlier run left would keep its mode.
      const partial = `${file}.partial`;
      rmSync(partial, { force: true });
      writeFileSync(partial, archive, { mode: PRIVATE_FILE });
      renameSync(partial, file);
      return summary;
    } finally {
      await db.close();
    }
  } finally {
    if (copy) rmSync(copy, { recursive: true, force: true });
    lock.release();
  }
}

/**
 * Restores a backup into `dataDir`. A folder that already holds a database is refused unless
 * `force`; then its files are moved aside (to the folder's name + `.before-restore-<time>`), not deleted.
 */
export async function restoreDataDir(
  dataDir: string,
  file: string,
  opts: { force?: boolean } = {},
): Promise<{ summary: DatabaseSummary; movedAside?: string }> {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${resolve(file)}.`);
  const archive = readFileSync(file);
  // gzip's magic number: anything else is not a backup this tool wrote.
  if (archive[0] !== 0x1f || archive[1] !== 0x8b)
    throw new BackupError(`${resolve(file)} is not a backup of the embedded database (.tar.gz).`);
  mkdirSync(dataDir, { recursive: true });
  const lock = await lockForTool(dataDir, "restore");
  try {
    let movedAside: string | undefined;
    if (holdsDatabase(dataDir)) {
      if (!opts.force) {
        const current = await PGlite.create(dataDir);
        const summary = await summarise(current).finally(() => current.close());
        throw new BackupError(
          `${resolve(dataDir)} already holds a database (${summaryText(summary)}). ` +
            "Restoring would replace it: run the restore again with --force to do so (the current files are moved aside, not deleted).",
        );
      }
      movedAside = moveAside(dataDir);
    }
    const db = await PGlite.create({ dataDir, loadDataDir: new Blob([archive]) });
    try {
      return { summary: await summarise(db), movedAside };
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}

/** Moves the folder's files (not the lock) to a sibling folder; its path. */
function moveAside(dataDir: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const aside = join(dirname(resolve(dataDir)), `${basename(resolve(dataDir))}.before-restore-${stamp}`);
  mkdirSync(aside);
  for (const entry of readdirSync(dataDir)) {
    if (entry !== LOCK_FILE) renameSync(join(dataDir, entry), join(aside, entry));
  }
  return aside;
}

export function summaryText(s: DatabaseSummary): string {
  return `${s.users} users, ${s.products} products, ${s.auditEntries} audit entries`;
}
