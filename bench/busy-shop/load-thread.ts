// The busy window's timed load, the stall probes and the taps, in a thread of its own. In the
// bench's main thread what they recorded was partly the bench itself: its 200 sockets' events and
// the import's 10 MB body held that thread, and an answer that arrived meanwhile was timed when
// the thread got to it. The thread starts, loads its modules and opens its connections before the
// window: booted at the window's start, its first probes timed its own warm-up (the worst answers
// on every server fell 0.6-1.2 s into the window).
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { request } from "./http.js";
import { type KnownProduct, type ProbeStats, runProbe, runTaps, type Tap } from "./load.js";

/** One probe: GET `url` every 20 ms, expecting `expected`. */
export interface ProbeTarget {
  label: string;
  url: string;
  expected: number;
}

/** Open-loop taps (load.ts runTaps): `perSecond` spread over `bases` as the streamer. */
export interface TapLoad {
  bases: string[];
  cookie: string;
  products: Array<Pick<KnownProduct, "id" | "quantity_on_hand">>;
  perSecond: number;
}

interface Setup {
  probes: ProbeTarget[];
  taps: TapLoad;
}

/** Main thread to load thread: the window's start (epoch ms: each thread's performance.now() has its own origin), then stop. */
type Command = { begin: number } | "stop";
/** Load thread to main thread. */
type Report = "ready" | { touched: number } | { probes: ProbeStats[]; taps: Tap[] };

export interface LoadThread {
  /** Starts the probes and taps with the window that starts at performance.now() `startedAt`. */
  begin(startedAt: number): void;
  /** Ends them: what they recorded, tap times in this thread's performance.now(). */
  stop(): Promise<{ probes: ProbeStats[]; taps: Tap[] }>;
}

/** Starts the thread and waits until it is warm; `touched` hears every tapped product's id. */
export async function startLoadThread(setup: Setup, touched: (id: number) => void): Promise<LoadThread> {
  const worker = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`,
    { eval: true, workerData: setup },
  );
  let ready: () => void = () => {};
  let done: (answer: { probes: ProbeStats[]; taps: Tap[] }) => void = () => {};
  let failed: (err: Error) => void = () => {};
  const warm = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const recorded = new Promise<{ probes: ProbeStats[]; taps: Tap[] }>((resolve) => {
    done = resolve;
  });
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  failure.catch(() => {}); // raced below; an unobserved rejection must not end the bench
  worker.on("message", (report: Report) => {
    if (report === "ready") ready();
    else if ("touched" in report) touched(report.touched);
    else done(report);
  });
  worker.once("error", failed);
  worker.once("exit", (code) => failed(new Error(`the load thread ended (exit code ${code}) before answering`)));
  await Promise.race([warm, failure]);
  // Tap times come back as epoch ms; this thread's performance.now() is epoch - its origin.
  const here = (epochMs: number) => epochMs - performance.timeOrigin;
  return {
    begin: (startedAt) => worker.postMessage({ begin: performance.timeOrigin + startedAt } satisfies Command),
    stop: async () => {
      worker.postMessage("stop" satisfies Command);
      const answer = await Promise.race([recorded, failure]);
      await worker.terminate();
      const taps = answer.taps.map((t) => ({ ...t, sentAt: here(t.sentAt), answeredAt: here(t.answeredAt) }));
      return { probes: answer.probes, taps };
    },
  };
}

if (!isMainThread && parentPort && (workerData as Setup | undefined)?.probes) {
  const { probes, taps } = workerData as Setup;
  const port = parentPort;
  const report = (r: Report) => port.postMessage(r);
  const window = { stopped: false, startedAt: 0 };
  // Warm: every code path once and a connection to each server, so the window times the servers.
  const urls = [...probes.map((p) => p.url), ...taps.bases.map((b) => `${b}/api/health`)];
  void Promise.all(urls.flatMap((url) => [1, 2, 3].map(() => request(url)))).then(() => report("ready"));
  port.on("message", (command: Command) => {
    if (command === "stop") {
      window.stopped = true;
      return;
    }
    window.startedAt = command.begin - performance.timeOrigin;
    const probing = Promise.all(probes.map((t) => runProbe(window, t.label, t.url, t.expected)));
    const tapping = runTaps(window, taps.bases, taps.cookie, taps.products, taps.perSecond, (id) => report({ touched: id }));
    void Promise.all([probing, tapping]).then(([probeStats, tapList]) =>
      report({
        probes: probeStats,
        // As epoch ms: the main thread's performance.now() has another origin.
        taps: tapList.map((t) => ({ ...t, sentAt: performance.timeOrigin + t.sentAt, answeredAt: performance.timeOrigin + t.answeredAt })),
      }),
    );
  });
}
