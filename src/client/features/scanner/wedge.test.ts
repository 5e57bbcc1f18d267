import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTextEntry, WedgeDetector } from "./wedge";

/** Types `text` then Enter, one key every `gap` ms from `start`; returns the Enter's result. */
function type(detector: WedgeDetector, text: string, gap: number, start = 1000) {
  let t = start;
  for (const ch of text) {
    expect(detector.key(ch, t)).toEqual({ kind: "none" });
    t += gap;
  }
  return { result: detector.key("Enter", t), end: t };
}

describe("WedgeDetector", () => {
  it("takes a fast burst ending in Enter as a scan", () => {
    expect(type(new WedgeDetector(), "0123456789012", 5).result).toEqual({ kind: "scan", code: "0123456789012" });
  });

  it("ignores human typing speed, even a fast typist's", () => {
    expect(type(new WedgeDetector(), "0123456789012", 120).result).toEqual({ kind: "none" });
    expect(type(new WedgeDetector(), "0123456789012", 100).result).toEqual({ kind: "none" });
    expect(type(new WedgeDetector(), "1234", 50).result).toEqual({ kind: "none" });
    expect(type(new WedgeDetector(), "1234567", 60).result).toEqual({ kind: "none" });
    expect(type(new WedgeDetector(), "1234", 40).result).toEqual({ kind: "scan", code: "1234" });
  });

  it("tolerates a few late keys from a busy browser", () => {
    const d = new WedgeDetector();
    const gaps = [158, 56, 223, 249, 123, 31, 86, 18, 17, 24, 17, 16, 16];
    let t = 0;
    [..."2000000000015"].forEach((ch, i) => {
      d.key(ch, t);
      t += gaps[i] ?? 0;
    });
    expect(d.key("Enter", t)).toEqual({ kind: "scan", code: "2000000000015" });
  });

  it("needs at least 4 characters", () => {
    expect(type(new WedgeDetector(), "123", 5).result).toEqual({ kind: "none" });
    expect(type(new WedgeDetector(), "1234", 5).result).toEqual({ kind: "scan", code: "1234" });
  });

  it("keeps only the fast tail after slow keys", () => {
    const d = new WedgeDetector();
    d.key("x", 0);
    d.key("y", 500);
    expect(type(d, "98765", 10, 2000).result).toEqual({ kind: "scan", code: "98765" });
  });

  it("is broken by a slow key or a slow Enter", () => {
    const d = new WedgeDetector();
    d.key("1", 0);
    d.key("2", 10);
    d.key("3", 20);
    d.key("4", 30);
    expect(d.key("Enter", 400)).toEqual({ kind: "none" });
  });

  it("counts the same code within 2 s once, and again after that", () => {
    const d = new WedgeDetector();
    const first = type(d, "55555", 5, 0);
    expect(first.result.kind).toBe("scan");
    const second = type(d, "55555", 5, first.end + 500);
    expect(second.result).toEqual({ kind: "duplicate", code: "55555" });
    expect(type(d, "66666", 5, second.end + 100).result).toEqual({ kind: "scan", code: "66666" });
    expect(type(d, "66666", 5, second.end + 3000).result).toEqual({ kind: "scan", code: "66666" });
  });

  it("lets Shift through (capital letters) and resets on other named keys", () => {
    const d = new WedgeDetector();
    d.key("Shift", 0);
    d.key("A", 2);
    d.key("B", 4);
    d.key("Shift", 5);
    d.key("C", 7);
    d.key("1", 9);
    expect(d.key("Enter", 11)).toEqual({ kind: "scan", code: "ABC1" });
    d.key("1", 100);
    d.key("2", 102);
    d.key("Backspace", 104);
    d.key("3", 106);
    d.key("4", 108);
    expect(d.key("Enter", 110)).toEqual({ kind: "none" });
  });

  it("any printable code typed at scanner speed comes back unchanged", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4, maxLength: 40 }).filter((s) => [...s].every((c) => c.length === 1 && c !== "\n")),
        fc.array(fc.integer({ min: 0, max: 45 }), { minLength: 41, maxLength: 41 }),
        (code, gaps) => {
          const d = new WedgeDetector();
          let t = 10_000;
          [...code].forEach((ch, i) => {
            d.key(ch, t);
            t += gaps[i] ?? 0;
          });
          expect(d.key("Enter", t)).toEqual({ kind: "scan", code });
        },
      ),
    );
  });
});

describe("WedgeDetector and people", () => {
  it("typing at a person's speed (100 ms a key or slower) is never a scan", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => [...s].every((c) => c.length === 1)),
        fc.array(fc.integer({ min: 100, max: 400 }), { minLength: 31, maxLength: 31 }),
        (text, gaps) => {
          const d = new WedgeDetector();
          let t = 0;
          [...text].forEach((ch, i) => {
            d.key(ch, t);
            t += gaps[i] ?? 60;
          });
          expect(d.key("Enter", t).kind).toBe("none");
        },
      ),
    );
  });
});

describe("isTextEntry", () => {
  it("is true for inputs, textareas, selects and editable content", () => {
    const input = document.createElement("input");
    const area = document.createElement("textarea");
    const select = document.createElement("select");
    const button = document.createElement("button");
    expect(isTextEntry(input)).toBe(true);
    expect(isTextEntry(area)).toBe(true);
    expect(isTextEntry(select)).toBe(true);
    expect(isTextEntry(button)).toBe(false);
    expect(isTextEntry(document.body)).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });
});
