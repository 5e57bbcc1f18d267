import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { FastifyBaseLogger } from "fastify";
import { type CompressedCopy, type CompressedList, compressJoined, type JsonParts } from "./json-parts.js";

/**
 * The gzip copy's level. 3, not zlib's default 6: a fraction of the CPU for a slightly larger copy
 * (a first list after a change waits for both copies, and during an import every process builds
 * one every few seconds). Browsers over HTTPS take brotli.
 */
const GZIP_LEVEL = 3;
/** zlib's output chunks while compressing a snapshot: fewer, larger callbacks on the event loop. */
const ZIP_CHUNK_BYTES = 256 * 1024;

/** The whole list as built once, and its compressed copies (compressed in the thread pool, not on the event loop). */
export interface CatalogueSnapshot {
  /** Every change up to this revision is in the list (X-Catalogue-Revision). */
  revision: number;
  /** Only when no change was in flight while it was built: the list is then exactly the catalogue at `revision`. */
  etag?: string;
  /**
   * Bytes of the list as JSON text. The text itself is never whole in memory: it was written
   * straight into the compressors (compressJoined); an answer without compression is the gzip
   * copy decompressed as it is sent.
   */
  bytes: number;
  br: CompressedCopy;
  gzip: CompressedCopy;
  builtAt: number;
}

export interface CatalogueSource {
  /** The catalogue watermark: every revision up to it is committed (a cheap statement, read while kept warm). */
  watermark(): Promise<number>;
  /**
   * The whole list as committed when called (its products, in the list's order, as refs that
   * `text` makes each one's JSON text of), and the watermark read before it (see
   * products.service catalogueSource).
   */
  build(): Promise<{ revision: number; exact: boolean; items: ArrayLike<number>; text: (item: number) => string }>;
  /** `{revision, products}` as JSON: every product whose revision is above `since`. */
  since(since: number): Promise<{ revision: number; json: JsonParts }>;
  /** The list's first `limit` products as JSON (an array), and the watermark they are current up to. */
  first(limit: number): Promise<{ revision: number; json: JsonParts }>;
  /** How many products changed after `revision`, counting at most `limit`. */
  changedSince(revision: number, limit: number): Promise<number>;
  /**
   * Brings what builds read from (the catalogue mirror) up to the catalogue as committed now,
   * without building a list: the next build then reads only the changes made after it.
   */
  catchUp(): Promise<void>;
}

export interface CatalogueCacheOptions {
  /**
   * A snapshot this many changes behind is still sent: the client catches up with ?since= right
   * after, answered from the catalogue mirror in memory. A large import changes products faster
   * than snapshots are built; a first load then waits for no build.
   */
  maxBehind: number;
  /** While kept warm (start()), the watermark is read this often to notice changes, this process's or another's. */
  pollMs: number;
  /**
   * A background build starts no sooner than this after the previous build ended: under constant
   * change the list is built about once per (build time + quietMs), never back to back.
   */
  quietMs: number;
  /**
   * A catch-up is answered without a statement of its own while the last look at the watermark
   * (the poll's, or a build's start) is at most this old and found the snapshot close enough.
   */
  trustMs: number;
  /**
   * While the quiet time keeps a change from a build, the mirror follows the changes (catchUp), so
   * the next build (a request's too) reads only the last ones. On PostgreSQL. Not on the embedded
   * database: there every statement holds its one connection and import batches let the
   * catch-up's statements go first, so following the changes would slow the import down.
   */
  catchUpBetweenBuilds: boolean;
  /**
   * Bulk work in this process (an import being written): while it answers true, no background
   * build starts, where catchUpBetweenBuilds (the mirror follows the changes meanwhile, so the build
   * after the import only makes the list). Without it the mirror reads the changes when it builds:
   * skipped builds would only move their reads after the import, onto the first load that follows
   * it. Requests still build when they must, and the build comes at the first look after it
   * answers false. A list of 100,000 products built every few seconds during an import is
   * thousands of changes behind once built, and each build takes CPU from the import.
   */
  busy?: () => boolean;
}

export const CATALOGUE_CACHE_DEFAULTS: CatalogueCacheOptions = {
  maxBehind: 25_000,
  pollMs: 1_000,
  quietMs: 5_000,
  trustMs: 5_000,
  catchUpBetweenBuilds: true,
};

type Log = Pick<FastifyBaseLogger, "warn" | "info">;

interface Build {
  /** Builds are numbered in the order they start. */
  seq: number;
  done: Promise<CatalogueSnapshot>;
}

/** What the last look at the watermark found: how many products changed after `snapshot`, and when. */
interface Look {
  snapshot: CatalogueSnapshot;
  behind: number;
  at: number;
}

/**
 * The catalogue list, built once (from the catalogue mirrored in memory) and compressed once, then
 * shared: otherwise every screen's first load would make the database build (and the server
 * compress) tens of megabytes again, and on the embedded database every other request would wait
 * behind it. A
 * list answer only has to be complete
 * up to the revision it names; clients fetch what changed after it with ?since=R. So a snapshot is
 * sent while it is at most `maxBehind` changes behind.
 *
 * Kept warm (start() at server start, stop() on close): the first snapshot is built right away,
 * and the watermark is polled, so a change made here or by another server process on the same
 * PostgreSQL (or an import's rows, between its events) makes a new snapshot in the background
 * soon after: at once after a quiet spell, then at most one per `quietMs` after the last while
 * changes keep coming. A catch-up is answered from the snapshot, with no statement of its own
 * while the poll's look is recent; it waits only when there is no snapshot yet or it is far
 * behind (then for the build in progress, or a new one). One build at a time, requests' and
 * background ones alike: at most two snapshots in memory (besides the mirror it is built from).
 */
export class CatalogueCache {
  private snapshot: CatalogueSnapshot | null = null;
  private building: Build | null = null;
  private started = 0;
  private lastEnded = 0;
  private look: Look | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking: Promise<void> | null = null;
  private pollFailing = false;
  private buildFailing = false;

  constructor(
    private readonly source: CatalogueSource,
    private readonly options: CatalogueCacheOptions = CATALOGUE_CACHE_DEFAULTS,
    private readonly log?: Log,
  ) {}

  /** Keeps the snapshot warm: the first build now, then a background build soon after each change. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops keeping it warm and waits for a build in progress (no timer is left behind). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    await this.building?.done.catch(() => {});
  }

  /**
   * The snapshot, when kept warm and a recent look found it at most `maxBehind` changes behind:
   * a catch-up needs no statement then (on the embedded database, whatever holds its one
   * connection would hold the catch-up too).
   */
  recent(): CatalogueSnapshot | null {
    const { snapshot, look } = this;
    if (!this.running || !snapshot || look?.snapshot !== snapshot) return null;
    if (Date.now() - look.at > this.options.trustMs || look.behind > this.options.maxBehind) return null;
    return snapshot;
  }

  /** A snapshot good enough for a client at catalogue watermark `watermark` (it catches up with ?since= afterwards). */
  async get(watermark: number): Promise<CatalogueSnapshot> {
    const current = this.snapshot;
    if (current && current.revision >= watermark) return current;
    if (current) {
      const behind = await this.source.changedSince(current.revision, this.options.maxBehind + 1);
      if (behind <= this.options.maxBehind) return current;
    }
    // No snapshot yet, or far behind: the build in progress (it started earlier, its list is
    // at most a little behind too), or one started now.
    return this.building?.done ?? this.rebuild();
  }

  /**
   * A snapshot that is exactly the catalogue at a revision of at least `latest` (the last revision
   * handed out when the caller asked), or else one built after this call: it holds every change
   * committed before the caller asked. The build in progress is waited for first, never doubled.
   */
  async fresh(latest: number): Promise<CatalogueSnapshot> {
    const before = this.started;
    for (;;) {
      const current = this.snapshot;
      if (current?.etag !== undefined && current.revision >= latest) return current;
      const inFlight = this.building;
      if (!inFlight) return this.rebuild();
      const built = await inFlight.done.catch(() => null);
      if (built && inFlight.seq > before) return built;
    }
  }

  /** `{revision, products}` as JSON: every product whose revision is above `since` (no snapshot involved). */
  since(since: number): Promise<{ revision: number; json: JsonParts }> {
    return this.source.since(since);
  }

  first(limit: number): Promise<{ revision: number; json: JsonParts }> {
    return this.source.first(limit);
  }

  /** The latest snapshot, if any. */
  current(): CatalogueSnapshot | null {
    return this.snapshot;
  }

  /**
   * Builds a new snapshot, or joins the build in progress. `waitedFor`: a request waits for it
   * (the two copies are compressed at once); a background build compresses one after the other.
   */
  rebuild(waitedFor = true): Promise<CatalogueSnapshot> {
    if (this.building) return this.building.done;
    this.started += 1;
    const build: Build = {
      seq: this.started,
      done: this.build(waitedFor).finally(() => {
        this.lastEnded = Date.now();
        if (this.building === build) this.building = null;
      }),
    };
    this.building = build;
    return build.done;
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
      });
    }, delay);
    // A warm cache never keeps the process (or a test run) alive.
    this.timer.unref();
  }

  /**
   * One look at the watermark (also while a build runs, so catch-ups keep a recent look), and a
   * background build when the snapshot is behind and the quiet time after the last build is over.
   */
  private async tick(): Promise<void> {
    let next = this.options.pollMs;
    try {
      const current = this.snapshot;
      if (current) {
        const at = Date.now();
        const watermark = await this.source.watermark();
        const behind = watermark <= current.revision ? 0 : await this.source.changedSince(current.revision, this.options.maxBehind + 1);
        if (this.snapshot === current) this.look = { snapshot: current, behind, at };
        if (this.pollFailing) this.log?.info("catalogue: the database answers again");
        this.pollFailing = false;
        if (watermark <= current.revision) return;
      }
      if (this.building || !this.running) return;
      // No build in the quiet time after the last one (also before trying again after a failed
      // first one), nor while this process writes bulk work (the first snapshot is built anyway).
      const wait = this.lastEnded + this.options.quietMs - Date.now();
      const quiet = (current !== null || this.buildFailing) && wait > 0;
      const busy = current !== null && this.options.catchUpBetweenBuilds && this.options.busy?.() === true;
      if (quiet || busy) {
        if (quiet) next = Math.min(next, wait);
        // Meanwhile the mirror follows the changes, so the next build (a request's too) reads only
        // the last ones, instead of a large import's whole catch-up falling on the next first load.
        // A failure here is the next build's to report (it reads them again).
        if (this.options.catchUpBetweenBuilds) await this.source.catchUp().catch(() => {});
        return;
      }
      // Not waited for: the poll goes on meanwhile, so catch-ups keep a recent look.
      this.rebuild(false).then(
        () => {
          if (this.buildFailing) this.log?.info("catalogue: the snapshot is built again");
          this.buildFailing = false;
        },
        (err) => {
          // Tried again after the quiet time (logged once until it works again); meanwhile
          // requests build for themselves if they must.
          if (!this.buildFailing && this.running) this.log?.warn({ err }, "catalogue: background build of the snapshot failed");
          this.buildFailing = true;
        },
      );
    } catch (err) {
      if (!this.pollFailing && this.running) this.log?.warn({ err }, "catalogue: reading the catalogue watermark failed");
      this.pollFailing = true;
    } finally {
      this.schedule(next);
    }
  }

  private async build(waitedFor: boolean): Promise<CatalogueSnapshot> {
    const at = Date.now();
    const { revision, exact, items, text } = await this.source.build();
    const [br, gz] = await compress(items, text, waitedFor);
    const snapshot: CatalogueSnapshot = {
      revision,
      etag: exact ? `"${revision}"` : undefined,
      bytes: br.bytes,
      br: br.compressed,
      gzip: gz.compressed,
      builtAt: Date.now(),
    };
    // Builds run one at a time, so this one is the newest; at an equal revision an exact one is kept.
    const kept = this.snapshot;
    if (!kept || kept.revision < revision || (kept.revision === revision && (exact || kept.etag === undefined))) {
      this.snapshot = snapshot;
      // Complete up to the watermark read as the build began: nothing behind as of then.
      this.look = { snapshot, behind: 0, at };
    }
    return snapshot;
  }
}

/**
 * The list's brotli and gzip copies, compressed in the thread pool as the text is written (it is
 * written once for each). `together`: both at once (a request waits). Else one after the other:
 * the two at once take both cores of a small server for a moment, from its requests and its
 * database, and during an import every server process builds every few seconds.
 */
async function compress(
  items: ArrayLike<number>,
  text: (item: number) => string,
  together: boolean,
): Promise<[CompressedList, CompressedList]> {
  const brotli = () =>
    compressJoined(
      items,
      text,
      "[",
      "]",
      createBrotliCompress({
        chunkSize: ZIP_CHUNK_BYTES,
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 5,
          // About what a product's text takes (the list's length is known only once written).
          [constants.BROTLI_PARAM_SIZE_HINT]: items.length * 400,
        },
      }),
    );
  const gzip = () => compressJoined(items, text, "[", "]", createGzip({ level: GZIP_LEVEL, chunkSize: ZIP_CHUNK_BYTES }));
  if (!together) return [await brotli(), await gzip()];
  return Promise.all([brotli(), gzip()]);
}

/** The encoding to send a snapshot in for this Accept-Encoding header (brotli, then gzip, else none). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  const accepted = new Set(
    (acceptEncoding ?? "")
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, "")) > 0)
      .map(([name]) => name?.trim().toLowerCase()),
  );
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return undefined;
}
