import { createHash, randomBytes } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MEDIA_NAME } from "../../../contract/photos.js";

/**
 * Advisory locks on photo files (the two-key form, in classes of their own; migration 0002 uses
 * 1651270010): one per file, keyed by the first 32 bits of its name (its content's hash), taken by
 * an upload adding a reference to the file and by the clean-up that may delete it; and one a
 * PostgreSQL backup holds while it copies the files, which clean-ups only try, shared.
 */
export const MEDIA_FILE_LOCK = 1651270012;
export const MEDIA_BACKUP_LOCK = 1651270013;

/**
 * Photo files in MEDIA_DIR, named by the SHA-256 of their content (`<hash>.webp`), in a
 * sub-folder per first two hex digits so no folder holds hundreds of thousands of files. A file
 * is written under a temporary name in the same file system and renamed into place, so a reader
 * (of this process or another one sharing the folder) sees the whole file or none; two
 * processes writing the same picture write the same bytes, whichever rename wins. A file is never
 * changed (the same name always means the same picture, so they are served with `immutable`
 * caching); it is removed once no product shows it (photo-files.ts decides when, under a lock
 * that an upload of the same picture takes too).
 */
export class MediaStore {
  constructor(readonly dir: string) {}

  /** Stores the bytes (once: a file with that content already there is kept) and answers their file name. */
  async put(data: Buffer, extension: "webp" | "jpg"): Promise<string> {
    const name = `${createHash("sha256").update(data).digest("hex")}.${extension}`;
    const path = this.pathOf(name);
    if (await exists(path)) return name;
    await mkdir(join(this.dir, name.slice(0, 2)), { recursive: true });
    const partial = join(this.dir, name.slice(0, 2), `.${name}.${randomBytes(6).toString("hex")}.partial`);
    try {
      await writeFile(partial, data);
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return name;
  }

  /** Deletes a stored file (one already gone is fine). */
  async remove(name: string): Promise<void> {
    if (!MEDIA_NAME.test(name)) return;
    await rm(this.pathOf(name), { force: true });
  }

  /** Whether a stored file is there. */
  async has(name: string): Promise<boolean> {
    return MEDIA_NAME.test(name) && exists(this.pathOf(name));
  }

  /** The file of a name (MEDIA_NAME), or undefined when there is no such file. */
  async open(name: string): Promise<{ stream: ReadStream; size: number } | undefined> {
    if (!MEDIA_NAME.test(name)) return undefined;
    const path = this.pathOf(name);
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return { stream: createReadStream(path), size: info.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  /** Where a stored file lives. */
  pathOf(name: string): string {
    return join(this.dir, name.slice(0, 2), name);
  }

  /** Every stored file, as paths relative to the folder (`ab/<hash>.webp`), for backups. */
  async list(): Promise<string[]> {
    return listMedia(this.dir);
  }
}

/** The photo files under a media folder (relative paths), skipping anything else (partial writes, stray files). */
export async function listMedia(dir: string): Promise<string[]> {
  let folders: string[];
  try {
    folders = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const files: string[] = [];
  for (const folder of folders.sort()) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const name of (await readdir(join(dir, folder))).sort()) {
      if (MEDIA_NAME.test(name) && name.startsWith(folder)) files.push(`${folder}/${name}`);
    }
  }
  return files;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}
