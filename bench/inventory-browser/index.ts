/**
 * The inventory at 100,000 products, in Chromium: the app's table and card grid against a plain
 * page that filters the same rows (page-scripts.ts), alternating in each round on one server.
 * Per page: first row on screen, the longest task while loading, the JS heap after loading (after
 * a garbage collection), then a 9-character search typed and erased at 150 ms a key while 20 stock
 * changes arrive live: keystroke to rows (the first animation frame showing that keystroke's
 * count and first row), keystrokes whose own result never showed, keystroke to the search box's
 * own text. See README.md.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type CDPSession, chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/chromium.mjs";
import { expectStatus, login, parse, request } from "../busy-shop/http.js";
import { seedCatalogue } from "../busy-shop/seed.js";
import { ADMIN, ROOT, removeDir, startServer, stopServer, tempDir } from "../busy-shop/servers.js";
import { percentile } from "../busy-shop/stats.js";
import { benchCatalogue, expectedState, keystrokes, type Listed } from "./catalogue.js";
import { PLAIN_PAGE, PROBE } from "./page-scripts.js";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEARCH = process.env.BENCH_SEARCH ?? "chrome 12";
const KEY_MS = 150;
const LIVE_CHANGES = Number(process.env.BENCH_LIVE_CHANGES ?? 20);
const VIEWPORT = { width: 1280, height: 900 };
/** After the first row: long tasks up to then count as the load's; the heap is read after it. */
const LOAD_WINDOW_MS = 3_000;
const GOALS = { p95Ms: 50, p95VsPlain: 2, heapMiB: 150, longTaskMs: 200, firstRowVsPlain: 1.3 };

type Kind = "plain" | "table" | "grid";
const KINDS: Kind[] = (process.env.BENCH_PAGES?.split(",") as Kind[] | undefined) ?? ["plain", "table", "grid"];

interface Run {
  firstRowMs: number;
  longestTaskMs: number;
  heapMiB: number;
  latencies: number[];
  echoes: number[];
  lost: number;
  keys: number;
}

declare global {
  interface Window {
    __probe: {
      firstRow: number | null;
      longTasks: Array<[number, number]>;
      recording: boolean;
      keys: Array<[number, string]>;
      frames: Array<[number, string, string | null]>;
    };
  }
}

/** The client as `npm run build` makes it, into a folder of this run (BENCH_CLIENT_DIR: one built already). */
function buildClient(): string {
  if (process.env.BENCH_CLIENT_DIR) return process.env.BENCH_CLIENT_DIR;
  const out = tempDir("blez-bench-client-");
  console.log(`Building the client of ${ROOT} ...`);
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--outDir", out, "--emptyOutDir", "--logLevel", "error"],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return out;
}

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));

async function keyEvent(cdp: CDPSession, key: string): Promise<void> {
  if (key === "Backspace") {
    const k = { key, code: "Backspace", windowsVirtualKeyCode: 8 };
    await Promise.all([
      cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...k }),
      cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...k }),
    ]);
    return;
  }
  const code = key === " " ? "Space" : /\d/.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`;
  const k = { key, code, windowsVirtualKeyCode: key.toUpperCase().charCodeAt(0) };
  await Promise.all([
    cdp.send("Input.dispatchKeyEvent", { type: "keyDown", text: key, unmodifiedText: key, ...k }),
    cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...k }),
  ]);
}

/** Per keystroke: when its own result first showed (null: never, or only after a later keystroke's). */
function analyse(keys: Array<[number, string]>, frames: Array<[number, string, string | null]>, states: string[], queries: string[]) {
  const latencies: number[] = [];
  const echoes: number[] = [];
  let lost = 0;
  keys.forEach(([at], i) => {
    const state = states[i];
    const shown = frames.find(([t, s]) => t >= at && s === state);
    const overtaken =
      shown &&
      keys.some(([later], j) => j > i && states[j] !== state && frames.some(([t, s]) => t >= later && t < shown[0] && s === states[j]));
    if (!shown || overtaken) lost++;
    else latencies.push(shown[0] - at);
    const echo = frames.find(([t, , value]) => t >= at && value === queries[i]);
    if (echo) echoes.push(echo[0] - at);
  });
  return { latencies, echoes, lost };
}

interface Setup {
  url: string;
  manager: { username: string; password: string };
  streamerCookie: string;
  total: number;
  states: string[];
  queries: string[];
  /** Products whose stock changes during the typing: some at the top of the list, some at the top of the search's result. */
  changed: number[];
}

async function runPage(browser: Browser, kind: Kind, setup: Setup): Promise<Run> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: "block" });
  try {
    const signedIn = await context.request.post(`${setup.url}/api/auth/login`, { data: setup.manager });
    if (!signedIn.ok()) throw new Error(`sign-in: ${signedIn.status()}`);
    await context.addInitScript({ content: PROBE });
    if (kind !== "plain") {
      // The view asked for, in the catalogue's order (no remembered sort); and who this browser
      // last saw signed in, as the app keeps it after every session check (a returning user).
      const { user } = (await signedIn.json()) as { user: unknown };
      const kept = JSON.stringify(JSON.stringify({ user }));
      await context.addInitScript({
        content: `localStorage.setItem("blez-inventory-view", "${kind}"); localStorage.removeItem("blez-inventory-sort"); localStorage.setItem("blez-signed-in", ${kept});`,
      });
    }
    await context.route(`${setup.url}/bench-plain`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: PLAIN_PAGE }),
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // BENCH_LOAD_TRACE=<folder>: a performance trace of each page's load, with JavaScript samples
    // (from the navigation to the end of the load window: where the longest task's time goes).
    const loadTrace = process.env.BENCH_LOAD_TRACE;
    const loadEvents: unknown[] = [];
    const collectLoad = (e: { value: unknown[] }) => loadEvents.push(...e.value);
    if (loadTrace) {
      cdp.on("Tracing.dataCollected", collectLoad);
      await cdp.send("Tracing.start", {
        traceConfig: {
          includedCategories: [
            "devtools.timeline",
            "disabled-by-default-devtools.timeline",
            "blink.user_timing",
            "v8.execute",
            "disabled-by-default-v8.cpu_profiler",
          ],
        },
      });
    }
    await page.goto(kind === "plain" ? `${setup.url}/bench-plain` : `${setup.url}/`);
    await waitForState(page, `${setup.total}|`, 240_000);
    // The poll above may see the rows between their commit and the next frame, where the probe notes them.
    await page.waitForFunction(() => window.__probe.firstRow !== null, undefined, { timeout: 10_000 });
    const firstRow = await page.evaluate(() => window.__probe.firstRow ?? Number.NaN);
    if (process.env.BENCH_VERBOSE) {
      // Where the first row's time goes: the catalogue's request (sent, first byte, last byte).
      const list = await page.evaluate(() =>
        (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
          .filter((e) => e.name.includes("/api/products"))
          .map((e) => [e.startTime, e.responseStart, e.responseEnd].map(Math.round).join("/")),
      );
      console.log(`${kind}: /api/products sent/first byte/last byte ms ${list.join(", ")}; first row ${Math.round(firstRow)} ms`);
    }
    await page.waitForTimeout(Math.max(0, firstRow + LOAD_WINDOW_MS - (await page.evaluate(() => performance.now()))));
    const longTasks = await page.evaluate(() => window.__probe.longTasks);
    const longestTaskMs = Math.max(0, ...longTasks.filter(([start]) => start < firstRow + LOAD_WINDOW_MS).map(([, d]) => d));
    if (loadTrace) {
      const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
      await cdp.send("Tracing.end");
      await done;
      cdp.off("Tracing.dataCollected", collectLoad);
      writeFileSync(join(loadTrace, `${kind}-load-${Date.now()}.json`), JSON.stringify({ traceEvents: loadEvents }));
    }
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = await cdp.send("Runtime.getHeapUsage");

    await page.focus('input[type="search"]');
    // BENCH_PROFILE=<folder>: a CPU profile of each page's typing (open it in Chromium's DevTools).
    const profile = process.env.BENCH_PROFILE;
    if (profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    // BENCH_TRACE=<folder>: a performance trace of each page's typing (load it in DevTools' Performance panel).
    const trace = process.env.BENCH_TRACE;
    const traceEvents: unknown[] = [];
    if (trace) {
      cdp.on("Tracing.dataCollected", (e) => traceEvents.push(...e.value));
      await cdp.send("Tracing.start", {
        traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"] },
      });
    }
    await page.evaluate(() => {
      window.__probe.recording = true;
    });
    const sent: Promise<unknown>[] = [];
    const start = performance.now() + 200;
    const events: Array<{ at: number; fire: () => Promise<unknown> }> = [];
    keystrokes(SEARCH).forEach(({ key }, i) => {
      events.push({ at: start + i * KEY_MS, fire: () => keyEvent(cdp, key) });
    });
    const typing = setup.queries.length * KEY_MS;
    // Made during every page's typing (the plain page does not show them): the same load on the server.
    setup.changed.forEach((id, i) => {
      events.push({
        at: start + 40 + (i * typing) / LIVE_CHANGES,
        fire: async () =>
          expectStatus(
            await request(`${setup.url}/api/products/${id}/quantity`, {
              method: "PUT",
              headers: { cookie: setup.streamerCookie },
              // Always up: the same products change in every run, so stock never runs out.
              json: { quantity_change: 1, reason: "Manual adjustment" },
            }),
            "live stock change",
            200,
          ),
      });
    });
    events.sort((a, b) => a.at - b.at);
    for (const e of events) {
      await sleepUntil(e.at);
      sent.push(e.fire());
    }
    await Promise.all(sent);
    const last = setup.states.at(-1) ?? "";
    await waitForState(page, last, 20_000).catch(() => {});
    await page.waitForTimeout(300);
    const { keys, frames } = await page.evaluate(() => ({ keys: window.__probe.keys, frames: window.__probe.frames }));
    if (trace) {
      const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
      await cdp.send("Tracing.end");
      await done;
      writeFileSync(join(trace, `${kind}-${Date.now()}.json`), JSON.stringify({ traceEvents }));
    }
    if (profile) {
      const { profile: cpu } = await cdp.send("Profiler.stop");
      writeFileSync(join(profile, `${kind}-${Date.now()}.cpuprofile`), JSON.stringify(cpu));
    }
    if (keys.length !== setup.queries.length) throw new Error(`${kind}: ${keys.length} keydowns seen, ${setup.queries.length} sent`);
    const result = analyse(keys, frames, setup.states, setup.queries);
    return {
      firstRowMs: firstRow,
      longestTaskMs,
      heapMiB: heap.usedSize / 2 ** 20,
      ...result,
      keys: keys.length,
    };
  } finally {
    await context.close();
  }
}

/** Until the page shows `state` ("<count>|<first barcode>"; a state ending in "|" checks the count only). */
async function waitForState(page: Page, state: string, timeout: number): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const summary = document.querySelector('[data-testid="results-summary"]');
      const m = summary ? /Showing ([\d,]+) of/.exec(summary.textContent || "") : null;
      const row = document.querySelector('[data-testid="product-row"], [data-testid="product-card"]');
      const now = `${m?.[1]?.replace(/,/g, "") ?? "-"}|${row?.getAttribute("data-barcode") ?? ""}`;
      return want.endsWith("|") ? now.startsWith(want) : now === want;
    },
    state,
    { timeout, polling: 50 },
  );
}

const median = (xs: number[]) => percentile(xs, 50);
const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "-");
const ok = (good: boolean) => (good ? "ok" : "MISS");

function report(runs: Record<Kind, Run[]>): void {
  const plain = runs.plain;
  const plainP95 = plain.length
    ? percentile(
        plain.flatMap((r) => r.latencies),
        95,
      )
    : Number.NaN;
  const plainFirst = plain.length ? median(plain.map((r) => r.firstRowMs)) : Number.NaN;
  console.log(
    `\n#### Inventory in Chromium, ${PRODUCTS.toLocaleString("en-US")} products, ${VIEWPORT.width}x${VIEWPORT.height}, "${SEARCH}" typed and erased at ${KEY_MS} ms a key, ${LIVE_CHANGES} live stock changes meanwhile; ${ROUNDS} rounds (keystrokes pooled, load figures: median, longest task: worst)\n`,
  );
  console.log(
    "| page | keystroke to rows p50 / p95 / max ms | p95 vs plain | own result never shown | keystroke to search box p95 ms | first row ms | vs plain | longest task in load ms | JS heap after load MiB |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const kind of KINDS) {
    const rs = runs[kind];
    if (!rs.length) continue;
    const lat = rs.flatMap((r) => r.latencies);
    const p95 = percentile(lat, 95);
    const first = median(rs.map((r) => r.firstRowMs));
    const longest = Math.max(...rs.map((r) => r.longestTaskMs));
    const heap = median(rs.map((r) => r.heapMiB));
    const lost = rs.reduce((s, r) => s + r.lost, 0);
    const keys = rs.reduce((s, r) => s + r.keys, 0);
    const app = kind !== "plain";
    const vsP95 = p95 / plainP95;
    const vsFirst = first / plainFirst;
    const echoP95 = percentile(
      rs.flatMap((r) => r.echoes),
      95,
    );
    const cells = [
      kind,
      `${f0(percentile(lat, 50))} / ${f0(p95)} / ${f0(Math.max(...lat))}${app ? ` ${ok(p95 < GOALS.p95Ms)}` : ""}`,
      app ? `${vsP95.toFixed(2)} ${ok(vsP95 <= GOALS.p95VsPlain)}` : "",
      `${lost} of ${keys}${app ? ` ${ok(lost === 0)}` : ""}`,
      f0(echoP95),
      f0(first),
      app ? `${vsFirst.toFixed(2)} ${ok(vsFirst <= GOALS.firstRowVsPlain)}` : "",
      `${f0(longest)}${app ? ` ${ok(longest < GOALS.longTaskMs)}` : ""}`,
      `${heap.toFixed(0)}${app ? ` ${ok(heap < GOALS.heapMiB)}` : ""}`,
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
  console.log(
    `\nGoals: p95 < ${GOALS.p95Ms} ms and <= ${GOALS.p95VsPlain}x the plain page; no keystroke lost; heap < ${GOALS.heapMiB} MiB; no task over ${GOALS.longTaskMs} ms; first row <= ${GOALS.firstRowVsPlain}x the plain page.`,
  );
}

export async function runInventoryBrowser(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("inventory-browser bench: no Chromium (set CHROMIUM_PATH or run node scripts/ensure-chromium.mjs)");
  const clientDir = buildClient();
  const dataDir = tempDir("blez-bench-inventory-");
  const server = await startServer("inventory-browser", { dataDir, clientDir });
  try {
    const adminCookie = await login(server.url, ADMIN.username, ADMIN.password);
    const accounts = { manager: "bench-manager", streamer: "bench-streamer" } as const;
    for (const [role, username] of Object.entries(accounts)) {
      expectStatus(
        await request(`${server.url}/api/auth/users`, {
          method: "POST",
          headers: { cookie: adminCookie },
          json: { username, password: `${username}-password`, role },
        }),
        `create ${username}`,
        201,
      );
    }
    console.log(`Seeding ${PRODUCTS.toLocaleString("en-US")} products ...`);
    await seedCatalogue(server.url, adminCookie, benchCatalogue(PRODUCTS));
    const list = parse<Listed[]>(
      expectStatus(await request(`${server.url}/api/products`, { headers: { cookie: adminCookie } }), "list", 200),
    );
    const steps = keystrokes(SEARCH);
    const queries = steps.map((s) => s.query);
    const states = queries.map((q) => expectedState(list, q));
    console.log(`Expected per keystroke (count|first barcode): ${queries.map((q, i) => `"${q}" ${states[i]}`).join(", ")}`);
    const matching = list.filter((p) => expectedState([p], SEARCH).startsWith("1|"));
    const changed = [...list.slice(0, LIVE_CHANGES / 2), ...matching.slice(0, LIVE_CHANGES / 2)].map((p) => p.id);
    const setup: Setup = {
      url: server.url,
      manager: { username: accounts.manager, password: `${accounts.manager}-password` },
      streamerCookie: await login(server.url, accounts.streamer, `${accounts.streamer}-password`),
      total: list.length,
      states,
      queries,
      changed,
    };

    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const runs: Record<Kind, Run[]> = { plain: [], table: [], grid: [] };
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const kind of KINDS) {
          const run = await runPage(browser, kind, setup);
          runs[kind].push(run);
          console.log(
            `round ${round} ${kind}: first row ${f0(run.firstRowMs)} ms, longest task ${f0(run.longestTaskMs)} ms, heap ${run.heapMiB.toFixed(0)} MiB, keystroke to rows ${run.latencies.map(f0).join(" ")} ms, ${run.lost} never shown`,
          );
        }
      }
    } finally {
      await browser.close();
    }
    report(runs);
  } finally {
    await stopServer(server);
    removeDir(dataDir);
    if (!process.env.BENCH_CLIENT_DIR) removeDir(clientDir);
  }
}
