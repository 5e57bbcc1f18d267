/**
 * Stock takes while the shop sells (issue 41): a 10,000-product location counted at 5 scans a
 * second from two devices (two HTTP clients, one scan per request, on their own connections),
 * first on a quiet server (the baseline), then under busy-shop's load: a streamer taps every 50 ms
 * (open loop, busy-shop's runTaps), an editor saves a product every 500 ms (runEditor), 200
 * watching sockets hear every change (connectSockets) and a second screen reads the session
 * every 100 ms. Per phase: each
 * scan's send-to-answer time and send-to-live-event time (`stock_take_update` on a socket of
 * another inventory user), p50/p95 and the loaded/quiet ratios; target: scan-to-screen p95 under
 * 100 ms under load. Then the whole location is approved while the taps go on: how long the
 * approval took and the taps' p50/p95 during it against taps alone (ratio).
 * BENCH_DB=pglite|postgres picks one database; BENCH_STOCK_PRODUCTS, BENCH_STOCK_SECONDS (per
 * phase) and BENCH_STOCK_SOCKETS.
 */
import { randomUUID } from "node:crypto";
import { expectStatus, login, newAgent, parse, request } from "../busy-shop/http.js";
import { type EditStats, editorCopy, type KnownProduct, runEditor, runTaps, type Tap, Window } from "../busy-shop/load.js";
import { type Accounts, createAccounts, postImport } from "../busy-shop/seed.js";
import { ADMIN, adminQuery, cleanUp, createDatabase, startServer, stopServer, tempDir } from "../busy-shop/servers.js";
import { connectSockets, WatchingSocket } from "../busy-shop/sockets.js";
import { ms, percentile, sleep } from "../busy-shop/stats.js";

const PRODUCTS = Number(process.env.BENCH_STOCK_PRODUCTS ?? 10_000);
const PHASE_SECONDS = Number(process.env.BENCH_STOCK_SECONDS ?? 30);
const SCANS_PER_SECOND = 5;
const DEVICES = 2;
const TAPS_PER_SECOND = 20;
const READER_EVERY_MS = 100;
const TARGET_P95_MS = 100;
/** Screens open while the shop is busy (busy-shop's watching sockets), each hearing every change. */
const SOCKETS = Number(process.env.BENCH_STOCK_SOCKETS ?? 200);
const LOCATION = "Bench binder wall";
type Kind = "pglite" | "postgres";

interface ScanTiming {
  id: string;
  sentAt: number;
  answerMs: number;
  status: number;
}

interface Phase {
  answer: number[];
  toEvent: number[];
  failures: number;
  missedEvents: number;
}

/** Two devices, each a scan every DEVICES / SCANS_PER_SECOND s (offset), open loop, for `seconds`. */
async function scanPhase(
  base: string,
  cookies: string[],
  session: number,
  locationId: number,
  barcodes: () => string,
  arrivals: Map<string, number>,
  seconds: number,
): Promise<Phase> {
  const every = (1000 * DEVICES) / SCANS_PER_SECOND;
  const start = performance.now();
  const end = start + seconds * 1000;
  const timings: ScanTiming[] = [];
  const device = async (d: number) => {
    const agent = newAgent(1);
    const cookie = cookies[d] as string;
    const pending: Promise<void>[] = [];
    for (let n = 0; ; n++) {
      const due = start + (d * every) / DEVICES + n * every;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const timing: ScanTiming = { id: randomUUID(), sentAt: performance.now(), answerMs: Number.NaN, status: 0 };
      timings.push(timing);
      pending.push(
        request(`${base}/api/stock-takes/${session}/scans`, {
          method: "POST",
          headers: { cookie },
          json: { device: `Bench device ${d + 1}`, scans: [{ client_scan_id: timing.id, barcode: barcodes(), location_id: locationId }] },
          agent,
          timeoutMs: 60_000,
        }).then(
          (answer) => {
            timing.answerMs = answer.doneAt - timing.sentAt;
            timing.status = answer.status;
          },
          () => {
            timing.status = -1;
          },
        ),
      );
    }
    await Promise.all(pending);
    agent.destroy();
  };
  await Promise.all(Array.from({ length: DEVICES }, (_, d) => device(d)));
  await sleep(1_000); // the last events
  const ok = timings.filter((t) => t.status === 200);
  const toEvent = ok.flatMap((t) => {
    const at = arrivals.get(t.id);
    return at === undefined ? [] : [at - t.sentAt];
  });
  return { answer: ok.map((t) => t.answerMs), toEvent, failures: timings.length - ok.length, missedEvents: ok.length - toEvent.length };
}

/** A second screen reading the session (GET /api/stock-takes/{id}) every READER_EVERY_MS until stopped. */
async function reader(window: Window, base: string, cookie: string, session: number): Promise<number[]> {
  const agent = newAgent(1);
  const times: number[] = [];
  while (!window.stopped) {
    const answer = await request(`${base}/api/stock-takes/${session}`, { headers: { cookie }, agent });
    expectStatus(answer, "reader", 200);
    times.push(answer.ms);
    await sleep(READER_EVERY_MS);
  }
  agent.destroy();
  return times;
}

const okTaps = (taps: Tap[]) => taps.filter((t) => t.status === 200).map((t) => t.answeredAt - t.sentAt);
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : "n/a");

async function run(kind: Kind): Promise<string> {
  const dataDir = tempDir("blez-bench-stock-takes-");
  const pg = kind === "postgres" ? await createDatabase("stock_takes") : undefined;
  const server = await startServer(`stock-takes-${kind}`, { dataDir, databaseUrl: pg?.url });
  try {
    const base = server.url;
    const admin = await login(base, ADMIN.username, ADMIN.password);
    const accounts: Accounts = await createAccounts(base, 0);
    const inventory = await login(base, accounts.inventory.username, accounts.inventory.password);
    const devices = [inventory, await login(base, accounts.inventory.username, accounts.inventory.password)];
    const streamer = await login(base, accounts.streamer.username, accounts.streamer.password);

    // Set-up (not measured): the location's products, the location, a session of it.
    const rows = Array.from({ length: PRODUCTS }, (_, i) => ({
      barcode: `ST${String(i).padStart(10, "0")}`,
      product_name: `Binder Card ${i}`,
      vendor: "Topps",
      release_year: 2000 + (i % 25),
      quantity_on_hand: 3 + (i % 7),
      location: LOCATION,
      cost: 100 + (i % 400),
      price: 250 + (i % 900),
    }));
    await postImport(base, admin, rows as unknown as Parameters<typeof postImport>[2]);
    const loc = parse<{ id: number }>(
      expectStatus(
        await request(`${base}/api/locations`, { method: "POST", headers: { cookie: admin }, json: { name: LOCATION } }),
        "location",
        201,
      ),
    );
    const session = parse<{ stock_take: { id: number } }>(
      expectStatus(
        await request(`${base}/api/stock-takes`, {
          method: "POST",
          headers: { cookie: inventory },
          json: { scope: { location_ids: [loc.id] } },
        }),
        "start",
        201,
      ),
    ).stock_take.id;
    const products = parse<KnownProduct[]>(
      expectStatus(await request(`${base}/api/products`, { headers: { cookie: admin } }), "products", 200),
    );

    // The live screen: another inventory user's socket, each scan's first event by client_scan_id.
    const arrivals = new Map<string, number>();
    const socket = new WatchingSocket(base);
    socket.socket.on("stock_take_update", (e: { scans?: Array<{ client_scan_id: string }> }) => {
      const at = performance.now();
      for (const s of e.scans ?? []) if (!arrivals.has(s.client_scan_id)) arrivals.set(s.client_scan_id, at);
    });
    await socket.authenticate(await login(base, accounts.inventory.username, accounts.inventory.password));

    // Each scan a product of the location, in order; every 7th scanned a second time ("already counted").
    let next = 0;
    const barcodes = () => {
      const i = next++;
      return (rows[(i % 7 === 6 ? i - 1 : i) % rows.length] as { barcode: string }).barcode;
    };

    // Warm-up (not measured), then the quiet baseline.
    await scanPhase(base, devices, session, loc.id, barcodes, arrivals, 3);
    const quiet = await scanPhase(base, devices, session, loc.id, barcodes, arrivals, PHASE_SECONDS);

    // Taps alone (their baseline), then the scans under load.
    const tapsAlone = new Window();
    const aloneTaps = runTaps(tapsAlone, [base], streamer, products, TAPS_PER_SECOND, () => {});
    await sleep(5_000);
    tapsAlone.stopped = true;
    const alone = okTaps(await aloneTaps);

    // The busy shop: open screens, taps, an editor (merging onto tapped products), the session read.
    const screens = await connectSockets([{ url: base, cookie: streamer }], SOCKETS);
    const editorsScreen = editorCopy(products);
    const touched = new Set<number>();
    const loadWindow = new Window();
    const loadTaps = runTaps(loadWindow, [base], streamer, products, TAPS_PER_SECOND, (id) => touched.add(id));
    const edits = runEditor(loadWindow, base, inventory, products, editorsScreen, touched);
    const reads = reader(loadWindow, base, admin, session);
    const loaded = await scanPhase(base, devices, session, loc.id, barcodes, arrivals, PHASE_SECONDS);
    loadWindow.stopped = true;
    const underLoad = okTaps(await loadTaps);
    const editStats: EditStats = await edits;
    const readTimes = await reads;

    // The whole location approved (scanned lines and the rest missing) while the taps go on.
    const approveWindow = new Window();
    const approveTaps = runTaps(approveWindow, [base], streamer, products, TAPS_PER_SECOND, () => {});
    await sleep(1_000);
    const approved = await request(`${base}/api/stock-takes/${session}/approve`, {
      method: "POST",
      headers: { cookie: admin },
      json: {},
      timeoutMs: 600_000,
    });
    expectStatus(approved, "approve", 200);
    const approveStart = approved.sentAt;
    const approveEnd = approved.doneAt;
    approveWindow.stopped = true;
    const duringApproval = (await approveTaps)
      .filter((t) => t.status === 200 && t.sentAt >= approveStart && t.sentAt <= approveEnd)
      .map((t) => t.answeredAt - t.sentAt);
    const lines = parse<{ totals: { lines: number } }>(approved).totals.lines;
    socket.close();
    for (const s of screens) s.close();

    const p = (v: number[], q: number) => percentile(v, q);
    const out = [
      `stock-takes (${kind}): ${PRODUCTS.toLocaleString("en")} products in one location, ${SCANS_PER_SECOND} scans/s from ${DEVICES} devices, ${PHASE_SECONDS} s per phase`,
      `  scan -> answer       quiet p50 ${ms(p(quiet.answer, 50))} p95 ${ms(p(quiet.answer, 95))} ms | loaded p50 ${ms(p(loaded.answer, 50))} p95 ${ms(p(loaded.answer, 95))} ms | ratio p50 ${ratio(p(loaded.answer, 50), p(quiet.answer, 50))} p95 ${ratio(p(loaded.answer, 95), p(quiet.answer, 95))}`,
      `  scan -> live event   quiet p50 ${ms(p(quiet.toEvent, 50))} p95 ${ms(p(quiet.toEvent, 95))} ms | loaded p50 ${ms(p(loaded.toEvent, 50))} p95 ${ms(p(loaded.toEvent, 95))} ms | ratio p50 ${ratio(p(loaded.toEvent, 50), p(quiet.toEvent, 50))} p95 ${ratio(p(loaded.toEvent, 95), p(quiet.toEvent, 95))}`,
      `  target: scan-to-screen p95 under ${TARGET_P95_MS} ms under load: ${Math.max(p(loaded.answer, 95), p(loaded.toEvent, 95)) < TARGET_P95_MS ? "met" : "NOT met"}`,
      `  scans: quiet ${quiet.answer.length} (failed ${quiet.failures}, no event ${quiet.missedEvents}), loaded ${loaded.answer.length} (failed ${loaded.failures}, no event ${loaded.missedEvents})`,
      `  load: ${screens.length} sockets; taps ${underLoad.length} p50 ${ms(p(underLoad, 50))} p95 ${ms(p(underLoad, 95))} ms (alone p50 ${ms(p(alone, 50))} p95 ${ms(p(alone, 95))}); edits ${editStats.ok} ok, ${editStats.conflicts} conflicts, ${editStats.other} other, p95 ${ms(p(editStats.latencies, 95))} ms; reader ${readTimes.length} reads p95 ${ms(p(readTimes, 95))} ms`,
      `  approval of ${lines.toLocaleString("en")} lines: ${(approved.ms / 1000).toFixed(1)} s; taps during it ${duringApproval.length} p50 ${ms(p(duringApproval, 50))} p95 ${ms(p(duringApproval, 95))} ms, max ${ms(Math.max(...duringApproval))} | ratio to taps alone p50 ${ratio(p(duringApproval, 50), p(alone, 50))} p95 ${ratio(p(duringApproval, 95), p(alone, 95))}`,
    ];
    return out.join("\n");
  } finally {
    await stopServer(server);
  }
}

export async function runStockTakes(): Promise<void> {
  const which = process.env.BENCH_DB ?? "both";
  const kinds: Kind[] = which === "both" ? ["pglite", "postgres"] : [which as Kind];
  if (kinds.includes("postgres")) await adminQuery("select 1");
  try {
    for (const kind of kinds) console.log(await run(kind));
  } finally {
    await cleanUp();
  }
}
