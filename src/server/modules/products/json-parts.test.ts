import { text } from "node:stream/consumers";
import { brotliDecompressSync, constants, createBrotliCompress, createGzip, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressJoined, joinJsonParts } from "./json-parts.js";

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

  it("once released, is not used again", async () => {
    const json = await joinJsonParts(texts, (t) => t, "[", "]");
    json.release();
    expect(() => json.stream()).toThrow();
  });

  it("of nothing is the opening and the closing", async () => {
    expect(String(await joinJsonParts([], (t: string) => t, "[", "]"))).toBe("[]");
  });

  it("joined straight into brotli and gzip, decompresses to the same text, its length in bytes counted", async () => {
    const whole = `[${texts.join(",")}]`;
    const [br, gz] = await Promise.all([
      compressJoined(texts, (t) => t, "[", "]", createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })),
      compressJoined(texts, (t) => t, "[", "]", createGzip()),
    ]);
    expect(brotliDecompressSync(Buffer.concat(br.compressed.chunks)).toString("utf8")).toBe(whole);
    expect(gunzipSync(Buffer.concat(gz.compressed.chunks)).toString("utf8")).toBe(whole);
    expect(br.bytes).toBe(Buffer.byteLength(whole));
    expect(gz.bytes).toBe(Buffer.byteLength(whole));
    expect(gz.compressed.length).toBe(Buffer.concat(gz.compressed.chunks).length);
    const empty = await compressJoined([], (t: string) => t, "[", "]", createGzip());
    expect(gunzipSync(Buffer.concat(empty.compressed.chunks)).toString("utf8")).toBe("[]");
  });
});
