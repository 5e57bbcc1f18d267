import { LONG_PRESS_MS, REPEAT_MS } from "../../lib/ui-timings";

/** Timers the repeater uses; injectable so the logic is testable without a real clock. */
export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * How many steps a press held for `heldMs` gives: 1 at once (a plain click), then after
 * LONG_PRESS_MS (500 ms) one step and another every REPEAT_MS (150 ms) until release.
 */
export function stepsForHold(heldMs: number, delayMs = LONG_PRESS_MS, intervalMs = REPEAT_MS): number {
  if (heldMs < delayMs) return 1;
  return 2 + Math.floor((heldMs - delayMs) / intervalMs);
}

export interface PressRepeater {
  /** Pointer down: one step now, repeats after the long-press delay. */
  press: () => void;
  /** Pointer up, leave or cancel: stops repeating. */
  release: () => void;
  readonly active: boolean;
}

/**
 * Press-and-hold auto-repeat. `onStep` returns false to stop (e.g. stock reached 0), since a
 * button that becomes disabled mid-press never receives its pointerup.
 */
export function createPressRepeater(
  onStep: () => boolean | undefined,
  opts: { delayMs?: number; intervalMs?: number; timers?: Timers } = {},
): PressRepeater {
  const timers = opts.timers ?? realTimers;
  const delayMs = opts.delayMs ?? LONG_PRESS_MS;
  const intervalMs = opts.intervalMs ?? REPEAT_MS;
  let timeout: unknown = null;
  let interval: unknown = null;
  let active = false;

  const release = () => {
    if (timeout !== null) timers.clearTimeout(timeout);
    if (interval !== null) timers.clearInterval(interval);
    timeout = null;
    interval = null;
    active = false;
  };
  const step = () => {
    if (onStep() === false) release();
  };

  return {
    press() {
      release();
      active = true;
      step();
      if (!active) return;
      timeout = timers.setTimeout(() => {
        timeout = null;
        step();
        if (active) interval = timers.setInterval(step, intervalMs);
      }, delayMs);
    },
    release,
    get active() {
      return active;
    },
  };
}
