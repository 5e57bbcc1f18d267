import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { Product } from "../../../contract/products.js";
import { rowsOf } from "../../db/sql.js";
import { fileDatabase } from "../../test/file-database.js";
import { newBarcode } from "../../test/product-calls.js";
import { CatalogueCache, type CatalogueCacheOptions, type CatalogueSnapshot, type CatalogueSource } from "./catalogue-cache.js";
import { catalogueSource } from "./products.service.js";

/**
 * The catalogue snapshot kept warm (CatalogueCache.start/stop) on a real database of its own. The
 * products here are written in SQL, as another server process (or an import between its events)
 * would: the cache hears of them only through the watermark.
 */

const file = fileDatabase();

/** Short times so the tests run in seconds; the server's are CATALOGUE_CACHE_DEFAULTS. */
const FAST: CatalogueCacheOptions = { maxBehind: 5_000, pollMs: 50, quietMs: 300, trustMs: 1_000, catchUpBetweenBuilds: true };

/** A new product, committed; its revision. */
async function insertProduct(barcode = newBarcode("WARM")): Promise<number> {
  const [row] = rowsOf<{ revision: string | number }>(
    await file.database.db.execute(sql`
      insert into products (barcode, product_name, vendor, revision)
      values (${barcode}, 'Warm Card', 'Topps', take_revision()) returning revision`),
  );
  return Number(row?.revision);
}

/** The real source, with every list build recorded (when it started and ended, how many ran at once). */
function recordedSource() {
  const real = catalogueSource(file.database.db);
  const builds: { start: number; end: number }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const source: CatalogueSource = {
    ...real,
    async build() {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const build = { start: Date.now(), end: Number.POSITIVE_INFINITY };
      builds.push(build);
      try {
        return await real.build();
      } finally {
        running -= 1;
        build.end = Date.now();
      }
    },
  };
  return { source, builds, mostAtOnce: () => mostAtOnce };
}

function recordingLog() {
  const lines: { level: "warn" | "info"; args: unknown[] }[] = [];
  return {
    lines,
    log: {
      warn: (...args: unknown[]) => void lines.push({ level: "warn", args }),
      info: (...args: unknown[]) => void lines.push({ level: "info", args }),
    },
  };
}

const listed = (snapshot: CatalogueSnapshot | null | undefined) =>
  (JSON.parse(gunzipSync(Buffer.concat(snapshot?.gzip.chunks ?? [])).toString("utf8")) as Product[]).map((p) => p.barcode);
const watermark = () => catalogueSource(file.database.db).watermark();

describe("a catalogue snapshot kept warm", () => {
  it("is built at start without any request, and a change is in a new one soon after", async () => {
    const { source, builds } = recordedSource();
    const cache = new CatalogueCache(source, FAST);
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      expect(cache.current()?.revision).toBe(await watermark());
      const barcode = newBarcode("WARM");
      const revision = await insertProduct(barcode);
      await vi.waitFor(() => expect(cache.current()?.revision).toBeGreaterThanOrEqual(revision), { timeout: 10_000, interval: 20 });
      expect(listed(cache.current())).toContain(barcode);
      // The change was noticed and built once; nothing is built while nothing changes.
      const count = builds.length;
      await new Promise((r) => setTimeout(r, 3 * FAST.quietMs));
      expect(builds.length).toBe(count);
    } finally {
      await cache.stop();
    }
  });

  it("while changes keep coming: builds one at a time, the quiet time apart, requests' builds included, and ends current", async () => {
    const { source, builds, mostAtOnce } = recordedSource();
    const cache = new CatalogueCache(source, FAST);
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      const first = builds.length;
      // At least 2 s of changes, and at least 100 of them (a loaded machine inserts slower).
      const until = Date.now() + 2_000;
      const requests: Promise<unknown>[] = [];
      let last = 0;
      let changes = 0;
      while (Date.now() < until || changes < 100) {
        last = await insertProduct();
        changes += 1;
        // Now and then a plain list (built for its caller) and catch-up lists, as requests would ask.
        if (changes % 60 === 0) {
          const wm = await watermark();
          requests.push(cache.fresh(wm), cache.get(wm), cache.get(wm));
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await Promise.all(requests);
      await vi.waitFor(() => expect(cache.current()?.revision).toBeGreaterThanOrEqual(last), { timeout: 10_000, interval: 20 });
      expect(mostAtOnce()).toBe(1);
      // Far fewer builds than changes; background builds start a quiet time after the build before.
      const background = builds.slice(first);
      expect(background.length).toBeGreaterThan(1);
      expect(background.length).toBeLessThan(changes / 5);
      const gaps = background.slice(1).map((b, i) => b.start - (background[i]?.end ?? 0));
      // Requests' builds (each after the build before it ended) may come sooner; most are spaced.
      expect(gaps.every((g) => g >= 0)).toBe(true);
      expect(gaps.filter((g) => g >= FAST.quietMs - 20).length).toBeGreaterThanOrEqual(Math.floor(gaps.length / 2));
    } finally {
      await cache.stop();
    }
  });

  it("builds nothing in the background while this process writes bulk work, and builds at the first look after", async () => {
    const { source, builds } = recordedSource();
    let busy = true;
    const cache = new CatalogueCache(source, { ...FAST, busy: () => busy });
    cache.start();
    try {
      // The first snapshot is built all the same.
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      const barcode = newBarcode("WARM");
      const revision = await insertProduct(barcode);
      await new Promise((r) => setTimeout(r, FAST.quietMs + 5 * FAST.pollMs));
      expect(builds).toHaveLength(1);
      // A request still gets a list with the change when it asks for one.
      expect(listed(await cache.fresh(revision))).toContain(barcode);
      expect(builds).toHaveLength(2);
      const other = newBarcode("WARM");
      const later = await insertProduct(other);
      await new Promise((r) => setTimeout(r, FAST.quietMs + 5 * FAST.pollMs));
      expect(builds).toHaveLength(2);
      busy = false;
      await vi.waitFor(() => expect(cache.current()?.revision).toBeGreaterThanOrEqual(later), { timeout: 10_000, interval: 20 });
      expect(listed(cache.current())).toContain(other);
    } finally {
      await cache.stop();
    }
  });

  it("answers a catch-up at once from a snapshot a few changes behind, and a plain list exactly", async () => {
    const cache = new CatalogueCache(catalogueSource(file.database.db), { ...FAST, quietMs: 60_000 });
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      const built = cache.current();
      const barcode = newBarcode("WARM");
      const revision = await insertProduct(barcode);
      // The quiet time (a minute here) keeps the background from building: the catch-up gets the older one.
      expect(await cache.get(await watermark())).toBe(built);
      const exact = await cache.fresh(revision);
      expect(exact.revision).toBeGreaterThanOrEqual(revision);
      expect(exact.etag).toBe(`"${exact.revision}"`);
      expect(listed(exact)).toContain(barcode);
      // Nothing changed since: the same snapshot, for both kinds of request.
      expect(await cache.fresh(revision)).toBe(exact);
      expect(await cache.get(await watermark())).toBe(exact);
    } finally {
      await cache.stop();
    }
  });

  it("offers a catch-up the snapshot with no statement while a recent look found it close enough", async () => {
    const cache = new CatalogueCache(catalogueSource(file.database.db), { ...FAST, maxBehind: 2, quietMs: 60_000 });
    expect(cache.recent()).toBeNull();
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      const built = cache.current();
      expect(cache.recent()).toBe(built);
      await insertProduct();
      await new Promise((r) => setTimeout(r, 5 * FAST.pollMs));
      // One change behind (at most 2 allowed here): still offered; the quiet time keeps it from a rebuild.
      expect(cache.recent()).toBe(built);
      await insertProduct();
      await insertProduct();
      await vi.waitFor(() => expect(cache.recent()).toBeNull(), { timeout: 5_000, interval: 10 });
      expect(cache.current()).toBe(built);
      // Too far behind: a catch-up asks the database, and gets a snapshot built for it.
      const rebuilt = await cache.get(await watermark());
      expect(rebuilt).not.toBe(built);
      expect(rebuilt.revision).toBe(await watermark());
      expect(cache.recent()).toBe(rebuilt);
    } finally {
      await cache.stop();
    }
    // Not kept warm: nothing is offered without a statement.
    expect(cache.recent()).toBeNull();

    // Nor once the last look is older than trustMs (no poll in between here).
    const slow = new CatalogueCache(catalogueSource(file.database.db), { ...FAST, pollMs: 60_000, trustMs: 200 });
    slow.start();
    try {
      await vi.waitFor(() => expect(slow.current()).not.toBeNull(), { timeout: 10_000, interval: 10 });
      await new Promise((r) => setTimeout(r, 300));
      expect(slow.current()).not.toBeNull();
      expect(slow.recent()).toBeNull();
    } finally {
      await slow.stop();
    }
  });

  it("brings the mirror up to the changes during the quiet time, so the next build reads only the later ones", async () => {
    const { source, builds } = recordedSource();
    const catchUps: number[] = [];
    const cache = new CatalogueCache(
      {
        ...source,
        async catchUp() {
          await source.catchUp();
          catchUps.push(builds.length);
        },
      },
      { ...FAST, quietMs: 60_000 },
    );
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      expect(catchUps).toEqual([]);
      const barcode = newBarcode("WARM");
      const revision = await insertProduct(barcode);
      // Noticed by the poll; no build (the quiet time), the mirror caught up instead.
      await vi.waitFor(() => expect(catchUps.length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
      expect(builds).toHaveLength(1);
      const exact = await cache.fresh(revision);
      expect(listed(exact)).toContain(barcode);
    } finally {
      await cache.stop();
    }

    // Without catchUpBetweenBuilds (the embedded database): the changes wait for the next build.
    const quiet = new CatalogueCache(
      {
        ...source,
        async catchUp() {
          catchUps.push(-1);
        },
      },
      { ...FAST, quietMs: 60_000, catchUpBetweenBuilds: false },
    );
    quiet.start();
    try {
      await vi.waitFor(() => expect(quiet.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      await insertProduct();
      await new Promise((r) => setTimeout(r, 5 * FAST.pollMs));
      expect(catchUps).not.toContain(-1);
    } finally {
      await quiet.stop();
    }
  });

  it("logs a failed build once, goes on trying after the quiet time and builds again later", async () => {
    const { lines, log } = recordingLog();
    const { source, builds } = recordedSource();
    const cache = new CatalogueCache(source, FAST, log);
    // A real failure of the list statement: its table is away for a while.
    await file.database.db.execute(sql`alter table products rename to products_away`);
    let renamed = true;
    try {
      cache.start();
      await vi.waitFor(() => expect(builds.length).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 20 });
      expect(cache.current()).toBeNull();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "warn", args: [expect.anything(), "catalogue: background build of the snapshot failed"] });
      // Tried again no sooner than the quiet time after the failure before.
      const gaps = builds.slice(1).map((b, i) => b.start - (builds[i]?.end ?? 0));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FAST.quietMs - 20);
      await file.database.db.execute(sql`alter table products_away rename to products`);
      renamed = false;
      await vi.waitFor(() => expect(cache.current()).not.toBeNull(), { timeout: 10_000, interval: 20 });
      expect(cache.current()?.revision).toBe(await watermark());
      expect(lines.at(-1)).toMatchObject({ level: "info", args: ["catalogue: the snapshot is built again"] });
    } finally {
      if (renamed) await file.database.db.execute(sql`alter table products_away rename to products`);
      await cache.stop();
    }
  });

  it("stops: waits for a build in progress, and builds nothing after", async () => {
    const { source, builds } = recordedSource();
    const cache = new CatalogueCache(source, FAST);
    cache.start();
    await vi.waitFor(() => expect(builds.length).toBe(1), { timeout: 10_000, interval: 5 });
    await cache.stop();
    expect(builds[0]?.end).toBeLessThan(Number.POSITIVE_INFINITY);
    const revision = cache.current()?.revision;
    await insertProduct();
    await new Promise((r) => setTimeout(r, 3 * (FAST.pollMs + FAST.quietMs)));
    expect(builds.length).toBe(1);
    expect(cache.current()?.revision).toBe(revision);
  });
});
