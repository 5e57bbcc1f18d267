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

/** What the thread is given: the load, and the main thread's time origin (each thread's performance.now() has its own). */
interface ThreadData extends Setup {
  mainTimeOrigin: number;
}

/** Main thread to load thread: the window's start (the main thread's performance.now()), then stop. */
type Command = { begin: number } | "stop";
type Recorded = { probes: ProbeStats[]; taps: Tap[] };
/** Load thread to main thread. */
type Report = "ready" | { touched: number } | Recorded;

export interface LoadThread {
  /** Starts the probes and taps with the window that starts at performance.now() `startedAt`. */
  begin(startedAt: number): void;
  /** Ends them: what they recorded, tap times in the main thread's performance.now(). */
  stop(): Promise<Recorded>;
}

/** Starts the thread and waits until it is warm; `touched` hears every tapped product's id. */
export async function startLoadThread(setup: Setup, touched: (id: number) => void): Promise<LoadThread> {
  const data: ThreadData = { ...setup, mainTimeOrigin: performance.timeOrigin };
  const worker = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`,
    { eval: true, workerData: data },
  );
  // The report awaited now ("ready", then what was recorded); the thread failing or ending, before
  // or while it is awaited, fails it.
  let awaited: { resolve: (report: Report) => void; reject: (err: Error) => void } | undefined;
  let ended: Error | undefined;
  const next = () =>
    new Promise<Report>((resolve, reject) => {
      awaited = { resolve, reject };
      if (ended) reject(ended);
    });
  const fail = (err: Error) => {
    ended ??= err;
    awaited?.reject(err);
  };
  worker.on("message", (report: Report) => {
    if (typeof report === "object" && "touched" in report) touched(report.touched);
    else awaited?.resolve(report);
  });
  worker.once("error", fail);
  worker.once("exit", (code) => fail(new Error(`the load thread ended (exit code ${code}) before answering`)));
  await next();
  return {
    begin: (startedAt) => worker.postMessage({ begin: startedAt } satisfies Command),
    stop: async () => {
      const recorded = next();
      worker.postMessage("stop" satisfies Command);
      const answer = (await recorded) as Recorded;
      await worker.terminate();
      return answer;
    },
  };
}

if (!isMainThread && parentPort && (workerData as ThreadData | undefined)?.probes) {
  const { probes, taps, mainTimeOrigin } = workerData as ThreadData;
  const port = parentPort;
  const report = (r: Report) => port.postMessage(r);
  /** This thread's performance.now() minus the main thread's for the same moment. */
  const offset = mainTimeOrigin - performance.timeOrigin;
  const window = { stopped: false, startedAt: 0 };
  // Warm: every code path once and a connection to each server, so the window times the servers.
  const urls = [...probes.map((p) => p.url), ...taps.bases.map((b) => `${b}/api/health`)];
  void Promise.all(urls.flatMap((url) => [1, 2, 3].map(() => request(url)))).then(() => report("ready"));
  port.on("message", (command: Command) => {
    if (command === "stop") {
      window.stopped = true;
      return;
    }
    window.startedAt = command.begin + offset;
    const probing = Promise.all(probes.map((t) => runProbe(window, t.label, t.url, t.expected)));
    const tapping = runTaps(window, taps.bases, taps.cookie, taps.products, taps.perSecond, (id) => report({ touched: id }));
    void Promise.all([probing, tapping]).then(([probeStats, tapList]) =>
      report({
        probes: probeStats,
        // In the main thread's time, as its sockets' arrivals are.
        taps: tapList.map((t) => ({ ...t, sentAt: t.sentAt - offset, answeredAt: t.answeredAt - offset })),
      }),
    );
  });
}
