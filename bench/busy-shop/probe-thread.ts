// The stall probes in a thread of their own. In the bench's main thread what they recorded was
// partly the bench itself: its 200 sockets' events and the import's 10 MB body held that thread,
// and an answer that arrived meanwhile was timed when the thread got to it (every probe's worst
// answer on every server at the same moment). Here an answer is timed when it arrives.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { type ProbeStats, runProbe, type Window } from "./load.js";

/** One probe: GET `url` every 20 ms, expecting `expected`. */
export interface ProbeTarget {
  label: string;
  url: string;
  expected: number;
}

interface Start {
  targets: ProbeTarget[];
  /** The window's start as epoch milliseconds: each thread's performance.now() has its own origin. */
  windowStartEpochMs: number;
}

/** Starts the probes against `targets` for `window`; `stop()` ends them and answers what they recorded. */
export function startProbes(window: Window, targets: ProbeTarget[]): { stop: () => Promise<ProbeStats[]> } {
  const start: Start = { targets, windowStartEpochMs: performance.timeOrigin + window.startedAt };
  const worker = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`,
    { eval: true, workerData: start },
  );
  const stats = new Promise<ProbeStats[]>((resolve, reject) => {
    worker.once("message", (answer: ProbeStats[]) => resolve(answer));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the probe thread ended (exit code ${code}) before answering`)));
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const answer = await stats;
      await worker.terminate();
      return answer;
    },
  };
}

if (!isMainThread && parentPort && (workerData as Start | undefined)?.targets) {
  const { targets, windowStartEpochMs } = workerData as Start;
  const window = { stopped: false, startedAt: windowStartEpochMs - performance.timeOrigin };
  const port = parentPort;
  port.once("message", () => {
    window.stopped = true;
  });
  const probes = targets.map((t) => runProbe(window, t.label, t.url, t.expected));
  void Promise.all(probes).then((stats) => port.postMessage(stats));
}
