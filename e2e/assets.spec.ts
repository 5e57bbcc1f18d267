import { get } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./support/env";

/** The first screen's scripts, styles and preloads as index.html names them. */
function firstScreenFiles(html: string): string[] {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
  return [...new Set(refs)];
}

/** A raw GET: the body as sent, not decoded (fetch and Playwright would decode it). */
function rawGet(path: string, acceptEncoding: string) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(new URL(path, E2E_BASE_URL), { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

test("the first screen's files go out pre-compressed to a browser that accepts brotli or gzip", async () => {
  const index = await rawGet("/", "identity");
  const files = firstScreenFiles(index.body.toString("utf8"));
  expect(files.length).toBeGreaterThan(1);
  for (const file of files) {
    const plain = await rawGet(file, "identity");
    expect(plain.headers["content-encoding"], file).toBeUndefined();
    for (const [accept, encoding, decode] of [
      ["br, gzip", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const res = await rawGet(file, accept);
      expect(res.headers["content-encoding"], `${file} (${accept})`).toBe(encoding);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(decode(res.body).equals(plain.body), file).toBe(true);
    }
  }
});
