import { describe, expect, it } from "vitest";
import { parseArrayInSlices } from "./json-slices";

describe("parseArrayInSlices", () => {
  const items = Array.from({ length: 300 }, (_, i) => ({
    id: i,
    // Text that looks like the cut between two objects, and nested arrays of objects.
    name: i % 7 === 0 ? `tricky },{"id": ${i} \\" name` : `Card ${i} ✓`,
    photos:
      i % 5 === 0
        ? [
            { id: 1, url: "a" },
            { id: 2, url: "b" },
            { id: 3, url: "c" },
          ]
        : [],
    price: i % 3 === 0 ? null : i * 10,
  }));
  const text = JSON.stringify(items);

  it("gives what JSON.parse gives, however small the slices", async () => {
    for (const slice of [1, 7, 64, 500, 4096, text.length + 1]) {
      expect(await parseArrayInSlices(text, slice)).toEqual(items);
    }
  });

  it("parses other layouts, empty arrays and single objects in one go", async () => {
    expect(await parseArrayInSlices("[]", 1)).toEqual([]);
    expect(await parseArrayInSlices('[{"id":1}]', 1)).toEqual([{ id: 1 }]);
    expect(await parseArrayInSlices(JSON.stringify(items, null, 2), 16)).toEqual(items);
  });

  it("fails as JSON.parse fails on broken text", async () => {
    await expect(parseArrayInSlices(`${text.slice(0, -10)}`, 64)).rejects.toThrow();
  });
});
