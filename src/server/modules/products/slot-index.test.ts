import { describe, expect, it } from "vitest";
import { SlotIndex } from "./slot-index.js";

/** An index over these ids, each in the slot of its position, as the catalogue mirror keeps them. */
function indexOf(ids: number[]) {
  const index = new SlotIndex((slot) => ids[slot] as number);
  for (const [slot, id] of ids.entries()) index.add(id, slot);
  return index;
}

describe("SlotIndex", () => {
  it("finds each of 100,000 serial ids' slot as the table grows, and no slot for ids it was not given", () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const index = indexOf(ids);
    for (const [slot, id] of ids.entries()) expect(index.get(id)).toBe(slot);
    for (const missing of [0, 100_001, 262_145, 2_147_483_647]) expect(index.get(missing)).toBeUndefined();
  });

  it("keeps ids that fall on the same cells apart: gaps, multiples of the table's size, the largest integer id", () => {
    const ids = [7, 2_048 + 7, 4_096 + 7, 1_000_000, 2_147_483_647, 65_536, 131_072, 3];
    for (let i = 1; i <= 5_000; i++) ids.push(i * 4_096 + 11);
    const index = indexOf(ids);
    for (const [slot, id] of ids.entries()) expect(index.get(id)).toBe(slot);
    expect(index.get(11)).toBeUndefined();
    expect(index.get(5_001 * 4_096 + 11)).toBeUndefined();
  });
});
