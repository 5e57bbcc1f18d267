import { describe, expect, it } from "vitest";
import { TextArena } from "./text-arena.js";

/** An arena with these texts in slots 0, 1, 2, ... */
function arenaOf(texts: string[]) {
  const arena = new TextArena();
  for (const [slot, text] of texts.entries()) arena.set(slot, text);
  const all = () => Array.from({ length: texts.length }, (_, slot) => arena.current()(slot));
  return { arena, all };
}

describe("TextArena", () => {
  it("keeps texts of any characters, each read back by its slot", () => {
    const texts = ["Pokémon ★ 1st", "", "\u0001a\u0001b", "漢字 🃏", "x".repeat(3000)];
    const { all } = arenaOf(texts);
    expect(all()).toEqual(texts);
  });

  it("grows and drops replaced texts when it makes room, and a snapshot taken before still reads what was there", () => {
    const base = Array.from({ length: 2000 }, (_, i) => `product ${i} ${"é".repeat(200)}`);
    const { arena, all } = arenaOf(base);
    const before = arena.snapshot(base.map((_, slot) => slot));
    // Every product changed three times: more garbage than live texts, so the buffer is rewritten.
    const latest = [...base];
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < base.length; i++) {
        latest[i] = `product ${i} round ${round} ${"é".repeat(200)}`;
        arena.set(i, latest[i] as string);
      }
    }
    expect(all()).toEqual(latest);
    const { used, garbage, capacity } = arena.size;
    expect(garbage).toBeLessThan(used);
    expect(capacity).toBeLessThan(4 * (used - garbage) + 2 * 1024 * 1024);
    // The snapshot taken before the changes reads the texts as they were, on the buffer it was taken on.
    expect(Array.from(before.items, before.text)).toEqual(base);
  });

  it("refuses a text of a megabyte or more, keeping the others", () => {
    const { arena, all } = arenaOf(["kept"]);
    expect(() => arena.set(1, "x".repeat(1024 * 1024))).toThrow(/over the limit/);
    expect(all()).toEqual(["kept"]);
    arena.set(1, "abc");
    expect(arena.current()(1)).toBe("abc");
  });
});
