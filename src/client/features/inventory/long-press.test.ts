import { describe, expect, it } from "vitest";
import { createPressRepeater, stepsForHold, type Timers } from "./long-press";

/** A hand-driven clock: nothing real waits, `advance` runs what falls due. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const tasks = new Map<number, { at: number; fn: () => void; every?: number }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      tasks.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void tasks.delete(h as number),
    setInterval: (fn, ms) => {
      tasks.set(++seq, { at: now + ms, fn, every: ms });
      return seq;
    },
    clearInterval: (h) => void tasks.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...tasks.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, task] = due;
      now = task.at;
      if (task.every) task.at += task.every;
      else tasks.delete(id);
      task.fn();
    }
    now = end;
  };
  return { timers, advance, pending: () => tasks.size };
}

describe("stepsForHold (500 ms long press, 150 ms repeat)", () => {
  it("gives 1 for a click and repeats after 500 ms every 150 ms", () => {
    expect(stepsForHold(0)).toBe(1);
    expect(stepsForHold(499)).toBe(1);
    expect(stepsForHold(500)).toBe(2);
    expect(stepsForHold(649)).toBe(2);
    expect(stepsForHold(650)).toBe(3);
    expect(stepsForHold(1100)).toBe(6);
  });
});

describe("createPressRepeater", () => {
  it("steps once on a short press", () => {
    const clock = fakeTimers();
    let steps = 0;
    const r = createPressRepeater(
      () => {
        steps += 1;
        return true;
      },
      { timers: clock.timers },
    );
    r.press();
    clock.advance(200);
    r.release();
    clock.advance(2000);
    expect(steps).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it("matches stepsForHold for every hold length", () => {
    for (const held of [0, 100, 499, 500, 501, 649, 650, 800, 1000, 2345]) {
      const clock = fakeTimers();
      let steps = 0;
      const r = createPressRepeater(
        () => {
          steps += 1;
          return true;
        },
        { timers: clock.timers },
      );
      r.press();
      clock.advance(held);
      r.release();
      clock.advance(5000);
      expect(steps, `held ${held} ms`).toBe(stepsForHold(held));
    }
  });

  it("stops by itself when a step says no more (stock reached 0)", () => {
    const clock = fakeTimers();
    let stock = 3;
    const r = createPressRepeater(
      () => {
        stock -= 1;
        return stock > 0;
      },
      { timers: clock.timers },
    );
    r.press();
    clock.advance(5000);
    expect(stock).toBe(0);
    expect(r.active).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it("a new press restarts cleanly", () => {
    const clock = fakeTimers();
    let steps = 0;
    const r = createPressRepeater(
      () => {
        steps += 1;
        return true;
      },
      { timers: clock.timers },
    );
    r.press();
    clock.advance(400);
    r.press();
    clock.advance(400);
    r.release();
    expect(steps).toBe(2);
  });
});
