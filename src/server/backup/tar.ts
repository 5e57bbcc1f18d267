import { type FileHandle, open } from "node:fs/promises";

/**
 * The few lines of the tar format (POSIX ustar) a backup needs: regular files with names of at
 * most 100 characters, written and read a piece at a time, so a backup of gigabytes of photos
 * never sits in memory. Any tar tool lists and extracts what this writes. A backup holds password
 * hashes and webhook secrets: the archive is written readable by its owner only (0600), and its
 * entries say the same to a tool that extracts them.
 */

/** The mode of every backup file and temporary file on the way, and of the entries inside. */
export const PRIVATE_FILE = 0o600;

const BLOCK = 512;
const CHUNK = 1024 * 1024;
/** 11 octal digits: the largest size a ustar header holds. */
const MAX_SIZE = 8 ** 11 - 1;

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  if (size > MAX_SIZE) throw new Error(`tar: ${name} is too large for a tar entry (${size} bytes)`);
  const h = Buffer.alloc(BLOCK);
  const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, "0")}\0`;
  h.write(name, 0, 100, "utf8");
  h.write(octal(PRIVATE_FILE, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, "ascii");
  h.write("        ", 148, "ascii"); // the checksum counts its own field as spaces
  h.write("0", 156, "ascii"); // a regular file
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes a tar file entry by entry; `close` ends it (two empty blocks). */
export class TarWriter {
  private constructor(
    private readonly out: FileHandle,
    private position = 0,
  ) {}

  /** A new archive at `file`, 0600 (also when a file of that name was left there before). */
  static async create(file: string): Promise<TarWriter> {
    const out = await open(file, "w", PRIVATE_FILE);
    await out.chmod(PRIVATE_FILE);
    return new TarWriter(out);
  }

  private async write(data: Buffer): Promise<void> {
    await this.out.write(data, 0, data.length, this.position);
    this.position += data.length;
  }

  async addBuffer(name: string, data: Buffer, mtime = new Date()): Promise<void> {
    await this.write(header(name, data.length, mtime));
    await this.write(data);
    await this.write(padding(data.length));
  }

  /**
   * Copies a file into the archive a megabyte at a time; true once added. With `missingOk`, a file
   * that is not there (any more) adds nothing and answers false.
   */
  async addFile(name: string, path: string, opts: { missingOk?: boolean } = {}): Promise<boolean> {
    let source: FileHandle;
    try {
      source = await open(path, "r");
    } catch (err) {
      if (opts.missingOk && (err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
    try {
      const info = await source.stat();
      await this.write(header(name, info.size, info.mtime));
      const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(info.size, 1)));
      for (let done = 0; done < info.size; ) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, info.size - done), done);
        if (bytesRead === 0) throw new Error(`tar: ${path} got shorter while it was copied`);
        await this.write(buffer.subarray(0, bytesRead));
        done += bytesRead;
      }
      await this.write(padding(info.size));
      return true;
    } finally {
      await source.close();
    }
  }

  async close(): Promise<void> {
    try {
      await this.write(Buffer.alloc(BLOCK * 2));
      await this.out.sync();
    } finally {
      await this.out.close();
    }
  }

  /** Closes the file without ending the archive (after a failure). */
  async abandon(): Promise<void> {
    await this.out.close();
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the file. */
  offset: number;
}

/** Whether the first block of a file is a ustar header. */
export function isTarHeader(block: Buffer): boolean {
  return block.length >= BLOCK && block.toString("ascii", 257, 262) === "ustar";
}

/** The regular files of a tar file, in order (names with a ustar prefix joined). */
export async function listTar(file: string): Promise<TarEntry[]> {
  const input = await open(file, "r");
  try {
    const { size: total } = await input.stat();
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    for (let at = 0; at + BLOCK <= total; ) {
      await input.read(block, 0, BLOCK, at);
      if (block.every((b) => b === 0)) break;
      if (!isTarHeader(block)) throw new Error(`tar: no entry header at byte ${at}`);
      const text = (start: number, length: number) => block.toString("utf8", start, start + length).replace(/\0.*$/s, "");
      const size = Number.parseInt(text(124, 12).trim() || "0", 8);
      const prefix = text(345, 155);
      const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
      const type = text(156, 1);
      if (type === "0" || type === "") entries.push({ name, size, offset: at + BLOCK });
      at += BLOCK + size + padding(size).length;
    }
    return entries;
  } finally {
    await input.close();
  }
}

/** Copies one entry's bytes out of the archive into `path` (a new file of `mode`, 0600 unless told). */
export async function extractTarEntry(file: string, entry: TarEntry, path: string, mode = PRIVATE_FILE): Promise<void> {
  const input = await open(file, "r");
  const output = await open(path, "w", mode);
  try {
    const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(entry.size, 1)));
    for (let done = 0; done < entry.size; ) {
      const { bytesRead } = await input.read(buffer, 0, Math.min(buffer.length, entry.size - done), entry.offset + done);
      if (bytesRead === 0) throw new Error(`tar: the archive ends inside ${entry.name}`);
      await output.write(buffer, 0, bytesRead);
      done += bytesRead;
    }
  } finally {
    await output.close();
    await input.close();
  }
}

/** Reads one (small) entry into memory. */
export async function readTarEntry(file: string, entry: TarEntry): Promise<Buffer> {
  const input = await open(file, "r");
  try {
    const buffer = Buffer.alloc(entry.size);
    await input.read(buffer, 0, entry.size, entry.offset);
    return buffer;
  } finally {
    await input.close();
  }
}
