import { describe, expect, it } from "vitest";
import { refLength, TextArena } from "./text-arena.js";

/** Slots as the catalogue mirror keeps them: one ref each, replaced as the product changes. */
function slots(arena: TextArena, texts: string[]) {
  let refs = new Float64Array(4);
  let count = 0;
  const put = (slot: number, text: string) => {
    const known = slot < count;
    if (!known) {
      if (count === refs.length) {
        const grown = new Float64Array(refs.length * 2);
        grown.set(refs);
        refs = grown;
      }
      count++;
    }
    // As the mirror does: added first (the arena may rewrite every ref), then the old one dropped.
    const ref = arena.add(text, refs, count);
    if (known) arena.drop(refs[slot] as number);
    refs[slot] = ref;
  };
  for (const [slot, text] of texts.entries()) put(slot, text);
  const read = (r: Float64Array) => Array.from(r, arena.reader());
  return { put, all: () => read(refs.subarray(0, count)), refs: () => refs.slice(0, count) };
}

describe("TextArena", () => {
  it("keeps texts of any characters, each read back by its ref", () => {
    const arena = new TextArena();
    const texts = ["Pokémon ★ 1st", "", "\u0001a\u0001b", "漢字 🃏", "x".repeat(3000)];
    const { all } = slots(arena, texts);
    expect(all()).toEqual(texts);
  });

  it("grows and drops replaced texts when it makes room, and a reader taken before still reads what was there", () => {
    const arena = new TextArena();
    const base = Array.from({ length: 2000 }, (_, i) => `product ${i} ${"é".repeat(200)}`);
    const { put, all, refs } = slots(arena, base);
    const refsBefore = refs();
    const readBefore = arena.reader();
    // Every product changed three times: more garbage than live texts, so the buffer is rewritten.
    const latest = [...base];
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < base.length; i++) {
        latest[i] = `product ${i} round ${round} ${"é".repeat(200)}`;
        put(i, latest[i] as string);
      }
    }
    expect(all()).toEqual(latest);
    const { used, garbage, capacity } = arena.size;
    expect(garbage).toBeLessThan(used);
    expect(capacity).toBeLessThan(4 * (used - garbage) + 2 * 1024 * 1024);
    // The reader taken before the changes reads the texts as they were, on the buffer it was taken on.
    expect(Array.from(refsBefore, readBefore)).toEqual(base);
  });

  it("refuses a text of a megabyte or more, keeping the others", () => {
    const arena = new TextArena();
    const { all } = slots(arena, ["kept"]);
    expect(() => arena.add("x".repeat(1024 * 1024), new Float64Array(1), 0)).toThrow(/over the limit/);
    expect(all()).toEqual(["kept"]);
    expect(refLength(arena.add("abc", new Float64Array(1), 0))).toBe(3);
  });
});
