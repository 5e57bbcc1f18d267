import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTO_MESSAGES, type Photo } from "../../../contract/photos.js";
import type { Product, ProductsSince } from "../../../contract/products.js";
import { buildApp } from "../../app.js";
import { testConfig } from "../../config.js";
import { productAudit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { caller, recordEvents } from "../products/products.test-support.js";
import { listMedia } from "./media-store.js";
import { hugePng, multipart, plainPng, sidewaysPhoneJpeg, uploadPhoto } from "./photos.test-support.js";

/** Product photos on a real database (PGlite, or PostgreSQL with DATABASE_URL), real files, real sharp. */

let t: TestApp;
let mediaDir: string;
let manager: { cookie: string; call: ReturnType<typeof caller> };
let inventory: { cookie: string; call: ReturnType<typeof caller> };
let streamer: { cookie: string; call: ReturnType<typeof caller> };

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), "blez-media-"));
  t = await createTestApp({ MEDIA_DIR: mediaDir });
  const as = async (role: "manager" | "inventory" | "streamer") => {
    const { cookie } = await signedIn(t.app, role);
    return { cookie, call: caller(t.app, cookie) };
  };
  manager = await as("manager");
  inventory = await as("inventory");
  streamer = await as("streamer");
});
afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const auditOf = (id: number) => t.app.db.select().from(productAudit).where(eq(productAudit.productId, id)).orderBy(productAudit.id);
const getFile = (app: FastifyInstance, url: string, cookie?: string) =>
  app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });

describe("adding a photo", () => {
  it("stores a sideways phone photo upright, as WebP, with no metadata left, and its thumbnail", async () => {
    const product = await manager.call.create();
    const original = await sidewaysPhoneJpeg();
    const before = await sharp(original).metadata();
    expect(before).toMatchObject({ orientation: 6, width: 400, height: 200 });
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS tags' pointer

    const rec = recordEvents(t.app);
    const res = await uploadPhoto(t.app, inventory.cookie, product.id, original, "IMG_0001.JPG");
    rec.stop();
    expect(res.statusCode).toBe(201);
    const { photo, product: after } = res.json<{ photo: Photo; product: Product }>();
    expect(photo).toMatchObject({ width: 200, height: 400 });
    expect(photo.url).toMatch(/^\/api\/media\/[0-9a-f]{64}\.webp$/);
    expect(photo.thumbnail_url).toMatch(/^\/api\/media\/[0-9a-f]{64}\.webp$/);
    expect(after.photos).toEqual([photo]);
    expect(after.version).toBe(product.version + 1);
    expect(after.revision).toBeGreaterThan(product.revision);

    const file = await getFile(t.app, photo.url, streamer.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/webp");
    expect(file.headers["cache-control"]).toBe("private, max-age=31536000, immutable");
    const stored = await sharp(file.rawPayload).metadata();
    expect(stored).toMatchObject({ format: "webp", width: 200, height: 400 });
    for (const field of ["exif", "icc", "iptc", "xmp", "orientation"] as const) expect(stored[field]).toBeUndefined();
    expect(file.rawPayload.includes(Buffer.from("PhoneCo"))).toBe(false);
    // Upright: the red half (the left of the sideways picture) is now on top.
    const { data } = await sharp(file.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    expect(at(100, 50)[0]).toBeGreaterThan(200);
    expect(at(100, 50)[2]).toBeLessThan(60);
    expect(at(100, 350)[2]).toBeGreaterThan(200);
    expect(at(100, 350)[0]).toBeLessThan(60);

    const thumbnail = await sharp((await getFile(t.app, photo.thumbnail_url, streamer.cookie)).rawPayload).metadata();
    expect(thumbnail).toMatchObject({ format: "webp", width: 160, height: 320 });
    expect(thumbnail.exif).toBeUndefined();

    // The event after the commit carries the product with its photos.
    expect(rec.events).toHaveLength(1);
    expect(rec.events[0]).toMatchObject({ type: "product_updated", data: { id: product.id, product: after } });
    // The audit: an UPDATE of photos, with the lists before and after.
    const last = (await auditOf(product.id)).at(-1);
    expect(last).toMatchObject({ action: "UPDATE", changedFields: ["photos"], oldValues: { photos: [] }, newValues: { photos: [photo] } });
  });

  it("accepts a phone-sized photo of several megabytes and stores it at most 1600 pixels a side", async () => {
    const product = await manager.call.create();
    const noise = Buffer.alloc(3000 * 2000 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 3000, height: 2000, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await uploadPhoto(t.app, manager.cookie, product.id, big, "IMG_2000.JPG");
    expect(res.statusCode).toBe(201);
    expect(res.json<{ photo: Photo }>().photo).toMatchObject({ width: 1600, height: 1067 });
  });

  it("comes with the product in the list, since, the barcode lookup and a stock change", async () => {
    const product = await manager.call.create();
    const res = await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#22aa22"));
    const { photo } = res.json<{ photo: Photo }>();
    const list = (await streamer.call.get("/api/products")).json<Product[]>();
    expect(list.find((p) => p.id === product.id)?.photos).toEqual([photo]);
    const since = (await streamer.call.get(`/api/products?since=${product.revision}`)).json<ProductsSince>();
    expect(since.products.find((p) => p.id === product.id)?.photos).toEqual([photo]);
    const lookup = (await streamer.call.get(`/api/products/barcode/${product.barcode}`)).json<Product>();
    expect(lookup.photos).toEqual([photo]);
    const sold = await streamer.call.put(`/api/products/${product.id}/quantity`, { quantity_change: -1 });
    expect(sold.json<Product>().photos).toEqual([photo]);
    const edited = await manager.call.put(`/api/products/${product.id}`, { product_name: "Renamed", version: product.version });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<Product>().photos).toEqual([photo]);
  });

  it("stores the same picture once: again on the product answers the photo it has; on another product it shares the files", async () => {
    const first = await manager.call.create();
    const second = await manager.call.create();
    const picture = await plainPng("#123456", 90, 60);
    const filesBefore = (await listMedia(mediaDir)).length;
    const added = await uploadPhoto(t.app, manager.cookie, first.id, picture);
    expect(added.statusCode).toBe(201);
    expect((await listMedia(mediaDir)).length).toBe(filesBefore + 2); // the photo and its thumbnail

    const again = await uploadPhoto(t.app, manager.cookie, first.id, picture, "copy.png");
    expect(again.statusCode).toBe(200);
    expect(again.json().photo).toEqual(added.json().photo);
    expect(again.json<{ product: Product }>().product.photos).toHaveLength(1);

    const elsewhere = await uploadPhoto(t.app, manager.cookie, second.id, picture);
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().photo.url).toBe(added.json().photo.url);
    expect(elsewhere.json().photo.id).not.toBe(added.json().photo.id);
    expect((await listMedia(mediaDir)).length).toBe(filesBefore + 2);
  });

  it("refuses what is not a photo, too many bytes or too many pixels, with their messages, and stores nothing", async () => {
    const product = await manager.call.create();
    const files = await listMedia(mediaDir);
    const audit = await auditOf(product.id);

    const text = await uploadPhoto(t.app, manager.cookie, product.id, Buffer.from("not a picture at all\n".repeat(50)), "photo.jpg");
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ error: PHOTO_MESSAGES.notAnImage });

    const big = Buffer.alloc(16 * 1024 * 1024, 7);
    const tooBig = await uploadPhoto(t.app, manager.cookie, product.id, big, "big.jpg");
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: PHOTO_MESSAGES.tooLarge });

    const bomb = hugePng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: "png", width: 20_000, height: 20_000 });
    const tooManyPixels = await uploadPhoto(t.app, manager.cookie, product.id, bomb, "bomb.png");
    expect(tooManyPixels.statusCode).toBe(400);
    expect(tooManyPixels.json()).toEqual({ error: PHOTO_MESSAGES.tooManyPixels });

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const vector = await uploadPhoto(t.app, manager.cookie, product.id, svg, "card.png");
    expect(vector.statusCode).toBe(400);

    const wrongField = await multipart(await plainPng("#000000"), "x.png", "image/png", "picture");
    const noFile = await t.app.inject({
      method: "POST",
      url: `/api/products/${product.id}/photos`,
      headers: { cookie: manager.cookie, "content-type": wrongField.contentType },
      payload: wrongField.payload,
    });
    expect(noFile.statusCode).toBe(400);
    const json = await manager.call.post(`/api/products/${product.id}/photos`, { file: "x" });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ error: PHOTO_MESSAGES.noFile });

    expect(await listMedia(mediaDir)).toEqual(files);
    expect(await auditOf(product.id)).toEqual(audit);
    const lookup = (await manager.call.get(`/api/products/barcode/${product.barcode}`)).json<Product>();
    expect(lookup).toMatchObject({ photos: [], version: product.version });
  });

  it("allows six photos a product, then answers 409", async () => {
    const product = await manager.call.create();
    const colours = ["#100000", "#200000", "#300000", "#400000", "#500000", "#600000"];
    for (const colour of colours)
      expect((await uploadPhoto(t.app, manager.cookie, product.id, await plainPng(colour))).statusCode).toBe(201);
    const seventh = await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#700000"));
    expect(seventh.statusCode).toBe(409);
    expect(seventh.json()).toEqual({ error: PHOTO_MESSAGES.tooMany });
    expect((await uploadPhoto(t.app, manager.cookie, 2_000_000_000, await plainPng("#800000"))).statusCode).toBe(404);
  });
});

describe("reordering and removing", () => {
  it("reorders (the first is the cover) and removes, each audited and announced; wrong orders and ids are refused", async () => {
    const product = await manager.call.create();
    const a = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#aa0000"))).json<{ photo: Photo }>().photo;
    const b = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#00aa00"))).json<{ photo: Photo }>().photo;

    const rec = recordEvents(t.app);
    const reordered = await inventory.call.put(`/api/products/${product.id}/photos`, { order: [b.id, a.id] });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json<{ product: Product }>().product.photos).toEqual([b, a]);
    for (const order of [[a.id], [a.id, a.id], [a.id, b.id, 99_999], [a.id, 99_999]]) {
      const res = await manager.call.put(`/api/products/${product.id}/photos`, { order });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: PHOTO_MESSAGES.orderMismatch });
    }
    // The order it already has: nothing changes, nothing is audited.
    const same = await manager.call.put(`/api/products/${product.id}/photos`, { order: [b.id, a.id] });
    expect(same.json<{ product: Product }>().product.version).toBe(reordered.json<{ product: Product }>().product.version);

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/products/${product.id}/photos/${b.id}`,
      headers: { cookie: manager.cookie },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<{ product: Product }>().product.photos).toEqual([a]);
    const missing = await t.app.inject({
      method: "DELETE",
      url: `/api/products/${product.id}/photos/${b.id}`,
      headers: { cookie: manager.cookie },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: PHOTO_MESSAGES.photoNotFound });
    rec.stop();

    expect(rec.events.map((e) => e.data.product?.photos.map((p) => p.id))).toEqual([[b.id, a.id], [a.id]]);
    const audit = (await auditOf(product.id)).filter((r) => r.changedFields.includes("photos"));
    expect(audit.map((r) => [r.oldValues, r.newValues])).toEqual([
      [{ photos: [] }, { photos: [a] }],
      [{ photos: [a] }, { photos: [a, b] }],
      [{ photos: [a, b] }, { photos: [b, a] }],
      [{ photos: [b, a] }, { photos: [a] }],
    ]);
    // A removed photo's file is still there for the audit to show.
    expect((await getFile(t.app, b.thumbnail_url, manager.cookie)).statusCode).toBe(200);
  });

  it("an edit opened before a photo change still saves (photos are not an edited field)", async () => {
    const product = await manager.call.create();
    await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#0000aa"));
    const res = await manager.call.put(`/api/products/${product.id}`, { vendor: "Panini", version: product.version });
    expect(res.statusCode).toBe(200);
    expect(res.json<Product>().photos).toHaveLength(1);
  });
});

describe("who may change and see photos", () => {
  it("a streamer cannot add, reorder or remove photos (403) but sees them; no one signed out sees a file (401)", async () => {
    const product = await manager.call.create();
    const { photo } = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#abcdef"))).json<{ photo: Photo }>();
    const files = await listMedia(mediaDir);

    const add = await uploadPhoto(t.app, streamer.cookie, product.id, await plainPng("#fedcba"));
    expect(add.statusCode).toBe(403);
    const reorder = await streamer.call.put(`/api/products/${product.id}/photos`, { order: [photo.id] });
    expect(reorder.statusCode).toBe(403);
    const remove = await t.app.inject({
      method: "DELETE",
      url: `/api/products/${product.id}/photos/${photo.id}`,
      headers: { cookie: streamer.cookie },
    });
    expect(remove.statusCode).toBe(403);
    expect(await listMedia(mediaDir)).toEqual(files);
    expect((await streamer.call.get(`/api/products/barcode/${product.barcode}`)).json<Product>().photos).toEqual([photo]);

    expect((await getFile(t.app, photo.url, streamer.cookie)).statusCode).toBe(200);
    const signedOut = await getFile(t.app, photo.url);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers["cache-control"]).toBe("no-store");
    expect((await uploadPhoto(t.app, "blez_session=nope", product.id, await plainPng("#fedcba"))).statusCode).toBe(401);
    expect((await getFile(t.app, `/api/media/${"0".repeat(64)}.webp`, streamer.cookie)).statusCode).toBe(404);
    expect((await getFile(t.app, "/api/media/..%2F..%2Fpackage.json", streamer.cookie)).statusCode).toBe(400);
  });
});

describe("several server processes share one MEDIA_DIR", () => {
  it("a photo added through one app is served by another on the same database and folder", async () => {
    const other = await buildApp({ config: testConfig({ MEDIA_DIR: mediaDir }), database: t.database, serveClient: false });
    try {
      await other.ready();
      const product = await manager.call.create();
      const { photo } = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#5a5a5a"))).json<{ photo: Photo }>();
      const { cookie } = await signedIn(other, "streamer");
      const served = await getFile(other, photo.url, cookie);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals((await getFile(t.app, photo.url, cookie)).rawPayload)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
