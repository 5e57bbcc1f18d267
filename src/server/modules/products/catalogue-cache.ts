import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

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
  /** Reads the watermark and, in a later statement, the whole list (see products.service readCatalogue). */
  build(): Promise<{ revision: number; exact: boolean; json: string }>;
  /** How many products changed after `revision`, counting at most `limit`. */
  changedSince(revision: number, limit: number): Promise<number>;
}

export interface CatalogueCacheOptions {
  /** A snapshot this many changes behind is still sent: the client catches up with ?since= right after. */
  maxBehind: number;
  /** A snapshot that is behind and older than this is rebuilt in the background while it is still sent. */
  refreshAfterMs: number;
}

export const CATALOGUE_CACHE_DEFAULTS: CatalogueCacheOptions = { maxBehind: 5_000, refreshAfterMs: 10_000 };

/**
 * The catalogue list, built by the database once and then shared: every screen's first load used
 * to make the database build (and the server compress) tens of megabytes again, and on the
 * embedded database every other request waited behind it. A list answer only has to be complete
 * up to the revision it names; clients fetch what changed after it with ?since=R. So a snapshot is
 * sent while it is at most `maxBehind` changes behind, and one build serves every request that
 * arrives while it runs.
 */
export class CatalogueCache {
  private snapshot: CatalogueSnapshot | null = null;
  private building: Promise<CatalogueSnapshot> | null = null;

  constructor(
    private readonly source: CatalogueSource,
    private readonly options: CatalogueCacheOptions = CATALOGUE_CACHE_DEFAULTS,
  ) {}

  /** A snapshot good enough for a client at catalogue watermark `watermark`. */
  async get(watermark: number): Promise<CatalogueSnapshot> {
    const current = this.snapshot;
    if (current && current.revision >= watermark) return current;
    if (current) {
      const behind = await this.source.changedSince(current.revision, this.options.maxBehind + 1);
      if (behind <= this.options.maxBehind) {
        if (Date.now() - current.builtAt > this.options.refreshAfterMs) void this.rebuild().catch(() => {});
        return current;
      }
    }
    return this.rebuild();
  }

  /** The latest snapshot, if any. */
  current(): CatalogueSnapshot | null {
    return this.snapshot;
  }

  /** A snapshot built for this caller alone (it must see every change committed before it asked). */
  buildFresh(): Promise<CatalogueSnapshot> {
    return this.build();
  }

  /** Builds a new snapshot; concurrent callers share one build. */
  rebuild(): Promise<CatalogueSnapshot> {
    this.building ??= this.build().finally(() => {
      this.building = null;
    });
    return this.building;
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
    // A slower build started earlier never replaces a newer snapshot.
    if (!this.snapshot || this.snapshot.revision <= snapshot.revision) this.snapshot = snapshot;
    return this.snapshot;
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
