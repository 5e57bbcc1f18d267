import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Photo } from "../../../contract/photos.js";
import type { Product } from "../../../contract/products.js";
import { plainPng } from "../../test/photo-files.js";
import { ADMIN, api, login, type ServerProcess, ServerProcesses } from "../../test/server-processes.js";

/** Two real server processes on one PostgreSQL database and one MEDIA_DIR, as the README describes. */

let cluster: ServerProcesses;
let servers: ServerProcess[] = [];
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), "blez-mp-media-"));
  cluster = await ServerProcesses.create("blez_photos_mp");
  servers = await Promise.all([cluster.start({ MEDIA_DIR: mediaDir }), cluster.start({ MEDIA_DIR: mediaDir })]);
}, 180_000);

afterAll(async () => {
  await cluster?.close();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
}, 60_000);

/** POST a picture to a product's photos on one server. */
async function upload(server: ServerProcess, cookie: string, productId: number, picture: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(picture)], { type: "image/png" }), "card.png");
  const res = await fetch(`${server.url}/api/products/${productId}/photos`, { method: "POST", headers: { cookie }, body: form });
  return { status: res.status, body: (await res.json()) as { photo: Photo; product: Product } };
}

describe("photos across server processes", () => {
  it("removed through one process while the same picture is uploaded through the other: every shown photo's files are served", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const cookieB = await login(b, ADMIN.username, ADMIN.password);
    const product = async (n: string) =>
      (await api<Product>(a, cookieA, "POST", "/api/products", { barcode: `MP-RACE-${n}`, product_name: "Race Card", vendor: "Topps" }))
        .body;
    const served = async (server: ServerProcess, cookie: string, url: string) =>
      (await fetch(`${server.url}${url}`, { headers: { cookie } })).status;
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      const picture = await plainPng(`#${(0x200000 + round * 0x0c0d).toString(16).slice(-6)}`, 200, 150);
      const [first, second] = [await product(`${round}-a`), await product(`${round}-b`)];
      const onFirst = (await upload(a, cookieA, first.id, picture)).body.photo;
      const [removed, added] = await Promise.all([
        new Promise((wait) => setTimeout(wait, round * 4)).then(() =>
          api<{ product: Product }>(a, cookieA, "DELETE", `/api/products/${first.id}/photos/${onFirst.id}`),
        ),
        upload(b, cookieB, second.id, picture),
      ]);
      expect([removed.status, added.status]).toEqual([200, 201]);
      const onSecond = added.body.photo;
      expect(onSecond.url).toBe(onFirst.url);
      for (const url of [onSecond.url, onSecond.thumbnail_url]) {
        expect([round, url, await served(a, cookieA, url), await served(b, cookieB, url)]).toEqual([round, url, 200, 200]);
      }
      // The last product showing it lets go: gone for both processes.
      const last = await api<{ product: Product }>(b, cookieB, "DELETE", `/api/products/${second.id}/photos/${onSecond.id}`);
      expect(last.status).toBe(200);
      expect([await served(a, cookieA, onSecond.url), await served(b, cookieB, onSecond.thumbnail_url)]).toEqual([404, 404]);
    }
  });

  it("a photo added through one process is listed and served by the other", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookieA = await login(a, ADMIN.username, ADMIN.password);
    const cookieB = await login(b, ADMIN.username, ADMIN.password);
    const created = await api<Product>(a, cookieA, "POST", "/api/products", {
      barcode: "MP-PHOTO-1",
      product_name: "Photo Card",
      vendor: "Topps",
    });
    expect(created.status).toBe(201);

    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await plainPng("#336699", 120, 80))], { type: "image/png" }), "card.png");
    const added = await fetch(`${a.url}/api/products/${created.body.id}/photos`, {
      method: "POST",
      headers: { cookie: cookieA },
      body: form,
    });
    expect(added.status).toBe(201);
    const { photo } = (await added.json()) as { photo: Photo };

    const onB = await api<Product>(b, cookieB, "GET", "/api/products/barcode/MP-PHOTO-1");
    expect(onB.body.photos).toEqual([photo]);
    for (const url of [photo.url, photo.thumbnail_url]) {
      const served = await fetch(`${b.url}${url}`, { headers: { cookie: cookieB } });
      expect(served.status).toBe(200);
      expect(served.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
      expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect((await fetch(`${b.url}${url}`)).status).toBe(401);
    }
  });
});
