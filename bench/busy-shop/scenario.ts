import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type CopyResult, copyBaselinePglite, copyBaselinePostgres } from "./copy-baseline.js";
import { login, request } from "./http.js";
import { decodeJson, type EditStats, editorCopy, type FirstLoad, firstLoad, type ProbeStats, runEditor, type Tap, Window } from "./load.js";
import { startLoadThread } from "./load-thread.js";
import { busyImportRows, catalogueRows, createAccounts, type ImportAnswer, importJson, postImport, seedCatalogue } from "./seed.js";
import { ADMIN, createDatabase, dropDatabase, removeDir, type ServerProcess, startServer, stopServer, tempDir } from "./servers.js";
import { connectSockets, tapKey, type WatchingSocket } from "./sockets.js";
import { sleep } from "./stats.js";

/** One run of the busy shop on one database: set-up (not measured), the busy window, the import baseline. */

export type DbKind = "pglite" | "postgres";

export const settings = {
  seconds: Number(process.env.BENCH_BUSY_SECONDS ?? 30),
  products: Number(process.env.BENCH_BUSY_PRODUCTS ?? 100_000),
  sockets: Number(process.env.BENCH_BUSY_SOCKETS ?? 200),
  viewers: Number(process.env.BENCH_BUSY_USERS ?? 10),
  tapsPerSecond: Number(process.env.BENCH_BUSY_TAPS ?? 10),
  importRows: Number(process.env.BENCH_BUSY_IMPORT_ROWS ?? 50_000),
  /** The import starts this far into the window. */
  importAtSeconds: Number(process.env.BENCH_BUSY_IMPORT_AT ?? 3),
  /** A fresh client's full load this far into the window (0 = none). */
  busyLoadAtFraction: Number(process.env.BENCH_BUSY_LOAD_AT ?? 0.6),
  /** The window is stretched until the import answers, by at most this long. */
  maxStretchSeconds: 180,
};

export interface Delivery {
  method: "idempotency_key" | "product id + new stock (events carry no idempotency_key)";
  answerToEvent: number[];
  sendToEvent: number[];
  firstSendToEvent: number[];
  expected: number;
  missing: number;
}

export interface ScenarioResult {
  kind: DbKind;
  servers: string[];
  windowMs: number;
  seed: ImportAnswer[];
  quietLoad: FirstLoad;
  loadVariants: Array<{ label: string; ms: number; ttfbMs: number; wireBytes: number }>;
  /** Ids of the products the window's import updates. */
  importUpdates: Set<number>;
  /** When the in-window first load was sent, ms into the window. */
  busyLoadAt?: number;
  busyLoad?: FirstLoad | { error: string };
  sockets: {
    count: number;
    disconnects: number;
    bytes: number[];
    events: number[];
    types: Record<string, number>;
    sawKey: boolean;
    sawProduct: boolean;
  };
  taps: Tap[];
  importWindow?: { startedAt: number; doneAt: number; windowStart?: number; answer?: ImportAnswer; error?: string };
  edits: EditStats;
  probes: ProbeStats[];
  benchLoop: { p99: number; max: number };
  delivery: Delivery;
  catchUp?: { since: number; ms: number; count: number; wireBytes: number; revision: number } | { error: string };
  copy: CopyResult;
  /** Error lines the server processes logged (pino level >= 50), a few of them. */
  serverErrors: { count: number; samples: string[] };
}

/** The servers' logged errors: their count and the first few distinct messages. */
function serverErrors(servers: ServerProcess[]): ScenarioResult["serverErrors"] {
  const samples = new Set<string>();
  let count = 0;
  for (const s of servers) {
    for (const line of s.output.join("").split("\n")) {
      let entry: { level?: number; msg?: string; err?: { message?: string } };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if ((entry.level ?? 0) < 50) continue;
      count += 1;
      if (samples.size < 5)
        samples.add(`${s.name}: ${entry.msg ?? ""}${entry.err?.message ? ` (${entry.err.message})` : ""}`.slice(0, 300));
    }
  }
  return { count, samples: [...samples] };
}

/** How the app's client asks for the catalogue (a shared snapshot; older servers ignore it). */
const CATCH_UP = "?catch_up=true";

const log = (kind: DbKind, msg: string) => console.log(`[${kind}] ${msg}`);

export async function busyShop(kind: DbKind): Promise<ScenarioResult> {
  const dir = tempDir(`blez-bench-busy-${kind}-`);
  let dbName: string | undefined;
  const servers: ServerProcess[] = [];
  let sockets: WatchingSocket[] = [];
  const rows = catalogueRows(settings.products);
  try {
    // ------------------------------------------------------------ set-up, not measured
    if (kind === "postgres") {
      const db = await createDatabase("busy");
      dbName = db.name;
      servers.push(...(await Promise.all(["A", "B"].map((n) => startServer(n, { dataDir: join(dir, n), databaseUrl: db.url })))));
    } else {
      servers.push(await startServer("A", { dataDir: join(dir, "data") }));
    }
    const [a, b] = [servers[0] as ServerProcess, (servers[1] ?? servers[0]) as ServerProcess];
    log(kind, `${servers.length} server process(es) up; creating users and ${settings.products} products`);
    const accounts = await createAccounts(a.url, settings.viewers);
    const seed = await seedCatalogue(a.url, await login(a.url, ADMIN.username, ADMIN.password), rows);
    log(kind, `seeded through the import API in ${seed.map((s) => (s.ms / 1000).toFixed(1)).join(" + ")} s`);

    const streamerCookie = await login(a.url, accounts.streamer.username, accounts.streamer.password);
    const inventoryCookie = await login(b.url, accounts.inventory.username, accounts.inventory.password);
    const quietLoad = await firstLoad(a.url, await login(a.url, accounts.inventory.username, accounts.inventory.password));
    if (quietLoad.count < settings.products) throw new Error(`first load answered ${quietLoad.count} products`);
    // Where the first load's time goes: the same list uncompressed and gzip-only; and as the app's
    // client asks for it (?catch_up=true: a shared snapshot on servers that have one), twice.
    const loadVariants: ScenarioResult["loadVariants"] = [];
    const variants = [
      { acceptEncoding: "identity", query: "" },
      { acceptEncoding: "gzip", query: "" },
      { acceptEncoding: "gzip, br", query: CATCH_UP },
      { acceptEncoding: "gzip, br", query: CATCH_UP },
    ];
    for (const { acceptEncoding, query } of variants) {
      const cookie = await login(a.url, accounts.inventory.username, accounts.inventory.password);
      const load = await firstLoad(a.url, cookie, { parse: false, acceptEncoding, query });
      loadVariants.push({ label: `${query || "plain"} ${acceptEncoding}`, ms: load.ms, ttfbMs: load.ttfbMs, wireBytes: load.wireBytes });
    }
    log(kind, `first load ${quietLoad.ms.toFixed(0)} ms; connecting ${settings.sockets} sockets`);

    const targets: Array<{ url: string; cookie: string }> = [];
    for (const viewer of accounts.viewers) {
      for (const s of servers) targets.push({ url: s.url, cookie: await login(s.url, viewer.username, viewer.password) });
    }
    sockets = await connectSockets(targets, settings.sockets);
    const busyCookie = await login(a.url, accounts.inventory.username, accounts.inventory.password);
    log(kind, `busy window: ${settings.seconds} s`);

    // Made before the window: 150,000 import rows and the editor's copy of 100,000 products, built
    // in this process while the probes wait for their first answers, showed as a stall of every
    // server at t = 0. So is the import's body as JSON text: made when the import starts, it held
    // this process for 100 ms or more, every probe's worst answer on both servers at t = 3.0 s.
    const importRows = busyImportRows(settings.importRows, settings.products);
    const importBody = importJson(importRows);
    const idOf = new Map(quietLoad.products.map((p) => [p.barcode, p.id]));
    const importUpdates = new Set(importRows.flatMap((r) => idOf.get(r.barcode) ?? []));
    const editorsScreen = editorCopy(quietLoad.products);

    const touched = new Set<number>();
    const load = await startLoadThread(
      {
        probes: servers.flatMap((s) => [
          { label: `${s.name} GET /api/health`, url: `${s.url}/api/health`, expected: 200 },
          { label: `${s.name} no-database 404`, url: `${s.url}/api/bench-probe-not-found`, expected: 404 },
        ]),
        taps: {
          bases: servers.map((s) => s.url),
          cookie: streamerCookie,
          products: quietLoad.products.map((p) => ({ id: p.id, quantity_on_hand: p.quantity_on_hand })),
          perSecond: settings.tapsPerSecond,
        },
      },
      (id) => touched.add(id),
    );

    // ------------------------------------------------------------ the busy window
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    for (const s of sockets) s.counting = true;
    const window = new Window();
    load.begin(window.startedAt);
    const edits = runEditor(window, b.url, inventoryCookie, quietLoad.products, editorsScreen, touched);
    const importWindow: NonNullable<ScenarioResult["importWindow"]> = { startedAt: Number.NaN, doneAt: Number.NaN };
    const importDone = (async () => {
      await sleep(settings.importAtSeconds * 1000);
      importWindow.startedAt = performance.now();
      importWindow.windowStart = window.startedAt;
      try {
        importWindow.answer = await postImport(a.url, inventoryCookie, importRows, importBody);
      } catch (err) {
        importWindow.error = (err as Error).message;
      }
      importWindow.doneAt = performance.now();
    })();
    let busyLoad: ScenarioResult["busyLoad"];
    let busyLoadAt: number | undefined;
    const busyLoadDone = (async () => {
      if (!settings.busyLoadAtFraction) return;
      await sleep(settings.busyLoadAtFraction * settings.seconds * 1000);
      busyLoadAt = window.elapsed();
      busyLoad = await firstLoad(a.url, busyCookie, { parse: false, query: CATCH_UP }).catch((err: Error) => ({ error: err.message }));
    })();

    await sleep(settings.seconds * 1000);
    await Promise.race([importDone, sleep(settings.maxStretchSeconds * 1000)]);
    window.stopped = true;
    const windowMs = window.elapsed();
    const [{ taps: tapList, probes: probeStats }, editStats] = await Promise.all([load.stop(), edits, busyLoadDone]);
    // The last taps' events.
    await sleep(2_000);
    for (const s of sockets) s.counting = false;
    loop.disable();
    await importDone;

    // ------------------------------------------------------------ after the window
    let catchUp: ScenarioResult["catchUp"];
    if (quietLoad.revision !== undefined) {
      const since = quietLoad.revision;
      try {
        const answer = await request(`${a.url}/api/products?since=${since}`, {
          headers: { cookie: busyCookie, "accept-encoding": "gzip, br" },
        });
        const body = (await decodeJson(answer)) as { revision: number; products: unknown[] };
        catchUp = { since, ms: answer.ms, count: body.products.length, wireBytes: answer.body.length, revision: body.revision };
      } catch (err) {
        catchUp = { error: (err as Error).message };
      }
    }

    const delivery = matchDeliveries(tapList, sockets);
    const result: Omit<ScenarioResult, "copy"> = {
      serverErrors: serverErrors(servers),
      kind,
      servers: servers.map((s) => s.name),
      windowMs,
      seed,
      quietLoad: { ...quietLoad, products: [] },
      loadVariants,
      importUpdates,
      busyLoadAt,
      busyLoad: busyLoad && "products" in busyLoad ? { ...busyLoad, products: [] } : busyLoad,
      sockets: {
        count: sockets.length,
        disconnects: sockets.reduce((n, s) => n + s.disconnects, 0),
        bytes: sockets.map((s) => s.bytes),
        events: sockets.map((s) => s.events),
        types: Object.fromEntries(sockets[0]?.eventsByType ?? []),
        sawKey: sockets.some((s) => s.sawIdempotencyKey),
        sawProduct: sockets.some((s) => s.sawProduct),
      },
      taps: tapList,
      importWindow,
      edits: editStats,
      probes: probeStats,
      benchLoop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      delivery,
      catchUp,
    };
    for (const s of sockets) s.close();
    sockets = [];
    for (const s of servers.splice(0)) {
      if (s.child.exitCode !== null) throw new Error(`server ${s.name} died during the run:\n${s.output.join("").slice(-3000)}`);
      await stopServer(s);
    }

    // ------------------------------------------------------------ the import's floor
    log(kind, "COPY baseline");
    const copy = kind === "postgres" ? await copyBaselinePostgres(rows) : await copyBaselinePglite(rows);
    return { ...result, copy };
  } finally {
    for (const s of sockets) s.close();
    for (const s of servers) await stopServer(s);
    if (dbName) await dropDatabase(dbName);
    removeDir(dir);
  }
}

/** Every answered tap against every socket: when its event arrived there. */
function matchDeliveries(taps: Tap[], sockets: WatchingSocket[]): Delivery {
  const byKey = sockets.some((s) => s.sawIdempotencyKey);
  const d: Delivery = {
    method: byKey ? "idempotency_key" : "product id + new stock (events carry no idempotency_key)",
    answerToEvent: [],
    sendToEvent: [],
    firstSendToEvent: [],
    expected: 0,
    missing: 0,
  };
  for (const tap of taps) {
    if (tap.status !== 200 || tap.quantityOnHand === undefined) continue;
    const key = byKey ? tap.key : tapKey(tap.id, tap.quantityOnHand);
    let first = Number.POSITIVE_INFINITY;
    for (const s of sockets) {
      d.expected += 1;
      const at = s.arrivals.get(key);
      if (at === undefined) {
        d.missing += 1;
        continue;
      }
      d.answerToEvent.push(at - tap.answeredAt);
      d.sendToEvent.push(at - tap.sentAt);
      first = Math.min(first, at);
    }
    if (Number.isFinite(first)) d.firstSendToEvent.push(first - tap.sentAt);
  }
  return d;
}
