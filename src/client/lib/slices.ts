/**
 * Long work in slices: a few milliseconds of it, then the browser may paint and handle input,
 * then the next slice (no task of the first load blocks the page for long).
 */

type Scheduler = {
  yield?: () => Promise<void>;
  postTask?: (callback: () => void, options: { priority: "background" }) => Promise<void>;
};

/** Lets the browser run what waits (input, a frame) before the caller goes on. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return nextMessage();
}

/**
 * Lets every other task that waits run first, the page's rendering included (work nobody looks
 * at yet: the catalogue's parse while the first screen renders). Where the browser cannot tell
 * priorities apart, as yieldToBrowser.
 */
export function yieldToOtherWork(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.postTask === "function") return scheduler.postTask(() => {}, { priority: "background" });
  return nextMessage();
}

function nextMessage(): Promise<void> {
  // A message, not setTimeout(0): nested timeouts are held back 4 ms each.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** SLICE_MS of work at a time. */
export const SLICE_MS = 8;

/** `work(i)` for i from 0 to count - 1, yielding to the browser every SLICE_MS. */
export async function inSlices(count: number, work: (i: number) => void, sliceMs = SLICE_MS): Promise<void> {
  let i = 0;
  while (i < count) {
    const until = performance.now() + sliceMs;
    do work(i++);
    while (i < count && ((i & 255) !== 0 || performance.now() < until));
    if (i < count) await yieldToBrowser();
  }
}
