import { describe, expect, it } from "vitest";
import { parseArrayInSlices, parseResponseInSlices } from "./json-slices";

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

describe("parseResponseInSlices", () => {
  const items = Array.from({ length: 200 }, (_, i) => ({
    id: i,
    name: i % 7 === 0 ? `tricky },{"id": ${i} \\" name ✓` : `Card ${i} é`,
    photos: i % 5 === 0 ? [{ id: 1 }, { id: 2 }] : [],
  }));
  const bytes = new TextEncoder().encode(JSON.stringify(items));

  /** A response whose body comes in chunks of `size` bytes (cutting characters of several bytes in two). */
  const chunked = (body: Uint8Array, size: number) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < body.length; at += size) controller.enqueue(body.slice(at, at + size));
          controller.close();
        },
      }),
    );

  it("gives what JSON.parse gives, whatever the chunks and slices", async () => {
    for (const [size, slice] of [
      [1, 7],
      [3, 64],
      [100, 1],
      [4096, 500],
      [bytes.length, 4096],
    ] as const) {
      expect(await parseResponseInSlices(chunked(bytes, size), slice)).toEqual(items);
    }
  });

  it("parses other layouts and empty bodies as JSON.parse does", async () => {
    expect(await parseResponseInSlices(new Response("[]"), 1)).toEqual([]);
    expect(await parseResponseInSlices(new Response(JSON.stringify(items, null, 2)), 16)).toEqual(items);
    await expect(parseResponseInSlices(new Response(""), 16)).rejects.toThrow();
    await expect(parseResponseInSlices(chunked(bytes.slice(0, -10), 50), 64)).rejects.toThrow();
  });
});
