import type { FastifyBaseLogger } from "fastify";
import { MEDIA_NAME, MEDIA_PATH } from "../../../contract/photos.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import type { MediaStore } from "./media-store.js";
import { lockMediaFiles, mediaUrlsInUse, tryMediaCleanupLock } from "./photos.repo.js";

/** How soon a clean-up put off by a running backup is tried again. */
const RETRY_MS = 2_000;

/** A stored file's URL, as a product's photos name it. */
export const mediaUrl = (name: string) => `${MEDIA_PATH}/${name}`;
/** The stored file a photo URL names, or undefined for anything else. */
export const mediaNameOf = (url: string): string | undefined => {
  const name = url.startsWith(`${MEDIA_PATH}/`) ? url.slice(MEDIA_PATH.length + 1) : "";
  return MEDIA_NAME.test(name) ? name : undefined;
};

/**
 * The photo files and the products that show them. Files are named by their content, so one
 * picture on several products is one pair of files (the photo and its thumbnail): they are
 * deleted once no product's `photos` names them (a disabled product's still do), checked after
 * the change that took the last one off has committed. An upload of the same picture at that
 * moment, in this process or another one sharing MEDIA_DIR, is kept safe by an advisory lock per
 * file, taken by the upload in the transaction that adds its reference (`hold`) and by the
 * clean-up around its check and delete (`release`): either the clean-up sees the upload's
 * committed reference and keeps the file, or the upload finds the file deleted and writes it again
 * before it commits. While a PostgreSQL backup copies the folder (it holds MEDIA_BACKUP_LOCK) a
 * clean-up is put off and tried again every few seconds, so a backup holds every file its
 * database dump names.
 */
export class PhotoFiles {
  private readonly putOff = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    readonly store: MediaStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * In the transaction that adds a reference to these files (already stored): locks them against
   * a clean-up until it commits, and stores again any that a clean-up deleted meanwhile.
   */
  async hold(tx: Db, files: Array<{ name: string; data: Buffer }>): Promise<void> {
    await lockMediaFiles(
      tx,
      files.map((f) => f.name),
    );
    for (const file of files) {
      if (!(await this.store.has(file.name))) await this.store.put(file.data, "webp");
    }
  }

  /**
   * After a change that took these files off a product (or an upload that did not add them) has
   * committed or rolled back: deletes those no product names any more. Never throws (the change
   * stands): a failure is logged and the files stay.
   */
  async release(names: string[]): Promise<void> {
    const files = [...new Set(names)].filter((name) => MEDIA_NAME.test(name));
    if (files.length === 0 || this.closed) return;
    try {
      const done = await withTransaction(this.db, async (tx) => {
        if (!(await tryMediaCleanupLock(tx))) return false;
        await lockMediaFiles(tx, files);
        const inUse = await mediaUrlsInUse(tx, files.map(mediaUrl));
        // Deleted while the locks are held: an upload waiting for them then finds the file gone and writes it again.
        for (const name of files) if (!inUse.has(mediaUrl(name))) await this.store.remove(name);
        return true;
      });
      if (!done) this.later(files);
    } catch (err) {
      this.log.warn({ err, files }, "photo files not cleaned up");
    }
  }

  /** Stops the retries (the app closes); files still put off stay. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private later(files: string[]): void {
    for (const name of files) this.putOff.add(name);
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const again = [...this.putOff];
      this.putOff.clear();
      void this.release(again);
    }, RETRY_MS);
    this.timer.unref();
  }
}
