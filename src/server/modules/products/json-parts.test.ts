import { text } from "node:stream/consumers";
import { brotliDecompressSync, constants, createBrotliCompress, createGzip, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressParts, joinJsonParts, PartPool } from "./json-parts.js";

/** Items whose JSON runs over several parts, some of them multi-byte, one larger than a part. */
const items = [
  ...Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `Card ${i} – Pokémon ${"é".repeat(i % 40)}`, note: "x".repeat(i % 300) })),
  { id: -1, name: "large", note: "y".repeat(700 * 1024) },
];
const texts = items.map((item) => JSON.stringify(item));

describe("JSON in parts", () => {
  it("is the same text as joining the items, over many parts, whole characters in each", async () => {
    const json = await joinJsonParts(texts, (t) => t, '{"products":[', "]}");
    expect(json.parts.length).toBeGreaterThan(2);
    for (const part of json.parts) expect(() => new TextDecoder("utf-8", { fatal: true }).decode(part)).not.toThrow();
    const whole = `{"products":[${texts.join(",")}]}`;
    expect(json.bytes).toBe(Buffer.byteLength(whole));
    expect(String(json)).toBe(whole);
    expect(await text(json.stream())).toBe(whole);
    expect(JSON.parse(String(json)).products).toEqual(items);
  });

  it("written in a pool: the next text takes the buffers the last one gave back, and is still the same text", async () => {
    const pool = new PartPool();
    const whole = `[${texts.join(",")}]`;
    const first = await joinJsonParts(texts, (t) => t, "[", "]", pool);
    expect(String(first)).toBe(whole);
    const buffers = new Set(first.parts.map((p) => p.buffer));
    first.release();
    expect(() => first.stream()).toThrow();
    const second = await joinJsonParts(texts, (t) => t, "[", "]", pool);
    // The large item's part (made for it alone) is not pooled; every other buffer is used again.
    expect(second.parts.filter((p) => buffers.has(p.buffer)).length).toBe(second.parts.length - 1);
    expect(String(second)).toBe(whole);
    // Not given back: a third text gets buffers of its own.
    const third = await joinJsonParts(texts, (t) => t, "[", "]", pool);
    expect(third.parts.some((p) => buffers.has(p.buffer))).toBe(false);
    expect(String(third)).toBe(whole);
  });

  it("of nothing is the opening and the closing", async () => {
    expect(String(await joinJsonParts([], (t: string) => t, "[", "]"))).toBe("[]");
  });

  it("compresses to what decompresses to the text, brotli and gzip", async () => {
    const json = await joinJsonParts(texts, (t) => t, "[", "]");
    const [br, gz] = await Promise.all([
      compressParts(json, createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })),
      compressParts(json, createGzip()),
    ]);
    expect(brotliDecompressSync(br).toString("utf8")).toBe(String(json));
    expect(gunzipSync(gz).toString("utf8")).toBe(String(json));
  });
});
