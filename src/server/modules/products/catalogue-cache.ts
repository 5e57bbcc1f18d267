import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyBaseLogger } from "fastify";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The whole list as built once, and its compressed copies (compressed in the thread pool, not on the event loop). */
export interface CatalogueSnapshot {
  /** Every change up to this revision is in the list (X-Catalogue-Revision). */
  revision: number;
  /** Only when no change was in flight while it was built: the list is then exactly the catalogue at `revision`. */
  etag?: string;
  json: Buffer;
  br: Buffer;
  gzip: Buffer;
  builtAt: number;
}

export interface CatalogueSource {
  /** The catalogue watermark: every revision up to it is committed (a cheap statement, read while kept warm). */
  watermark(): Promise<number>;
  /** Reads the watermark and, in a later statement, the whole list (see products.service readCatalogue). */
  build(): Promise<{ revision: number; exact: boolean; json: string }>;
  /** How many products changed after `revision`, counting at most `limit`. */
  changedSince(revision: number, limit: number): Promise<number>;
}

export interface CatalogueCacheOptions {
  /** A snapshot this many changes behind is still sent: the client catches up with ?since= right after. */
  maxBehind: number;
  /** While kept warm (start()), the watermark is read this often to notice changes, this process's or another's. */
  pollMs: number;
  /**
   * A background build starts no sooner than this after the previous build ended: under constant
   * change the list is built about once per (build time + quietMs), never back to back (on the
   * embedded database the list statement holds its only connection while it runs).
   */
  quietMs: number;
}

export const CATALOGUE_CACHE_DEFAULTS: CatalogueCacheOptions = { maxBehind: 5_000, pollMs: 1_000, quietMs: 5_000 };

type Log = Pick<FastifyBaseLogger, "warn" | "info">;

interface Build {
  /** Builds are numbered in the order they start. */
  seq: number;
  done: Promise<CatalogueSnapshot>;
}

/**
 * The catalogue list, built by the database once and then shared: every screen's first load used
 * to make the database build (and the server compress) tens of megabytes again, and on the
 * embedded database every other request waited behind it. A list answer only has to be complete
 * up to the revision it names; clients fetch what changed after it with ?since=R. So a snapshot is
 * sent while it is at most `maxBehind` changes behind.
 *
 * Kept warm (start() at server start, stop() on close): the first snapshot is built right away,
 * and the watermark is polled so a change made here or by another server process on the same
 * PostgreSQL (or an import between its events) makes a new snapshot in the background soon
 * after, at most one per `quietMs` after the last while changes keep coming. A request is then
 * answered from a snapshot that is current or a few changes behind; it waits only for the build
 * already running when there is no snapshot yet, or when it is far behind (a large import).
 * One build at a time, requests' and background ones alike: at most two lists in memory.
 */
export class CatalogueCache {
  private snapshot: CatalogueSnapshot | null = null;
  private building: Build | null = null;
  private started = 0;
  private lastEnded = 0;
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

  /** The latest snapshot, if any. */
  current(): CatalogueSnapshot | null {
    return this.snapshot;
  }

  /** Builds a new snapshot, or joins the build in progress. */
  rebuild(): Promise<CatalogueSnapshot> {
    if (this.building) return this.building.done;
    this.started += 1;
    const build: Build = {
      seq: this.started,
      done: this.build().finally(() => {
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

  /** One look at the watermark; a background build when the snapshot is behind and the quiet time has passed. */
  private async tick(): Promise<void> {
    let next = this.options.pollMs;
    try {
      if (this.building) return;
      const current = this.snapshot;
      if (current) {
        const watermark = await this.source.watermark();
        if (this.pollFailing) this.log?.info("catalogue: the database answers again");
        this.pollFailing = false;
        if (watermark <= current.revision) return;
      }
      const wait = this.lastEnded + this.options.quietMs - Date.now();
      if (current && wait > 0) {
        next = Math.min(next, wait);
        return;
      }
      if (!this.running) return;
      try {
        await this.rebuild();
        if (this.buildFailing) this.log?.info("catalogue: the snapshot is built again");
        this.buildFailing = false;
      } catch (err) {
        // Tried again after the quiet time; meanwhile requests build for themselves if they must.
        if (this.running) this.log?.warn({ err }, "catalogue: background build of the snapshot failed");
        this.buildFailing = true;
        next = Math.max(next, this.options.quietMs);
      }
    } catch (err) {
      if (!this.pollFailing && this.running) this.log?.warn({ err }, "catalogue: reading the catalogue watermark failed");
      this.pollFailing = true;
    } finally {
      this.schedule(next);
    }
  }

  private async build(): Promise<CatalogueSnapshot> {
    const { revision, exact, json } = await this.source.build();
    const body = Buffer.from(json);
    const [br, gz] = await Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzipAsync(body, { level: 6 }),
    ]);
    const snapshot: CatalogueSnapshot = {
      revision,
      etag: exact ? `"${revision}"` : undefined,
      json: body,
      br,
      gzip: gz,
      builtAt: Date.now(),
    };
    // Builds run one at a time, so this one is the newest; at an equal revision an exact one is kept.
    const kept = this.snapshot;
    if (!kept || kept.revision < revision || (kept.revision === revision && (exact || kept.etag === undefined))) this.snapshot = snapshot;
    return snapshot;
  }
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
