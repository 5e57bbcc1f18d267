import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTO_MESSAGES, type Photo } from "../../../contract/photos.js";
import type { Product, ProductsSince } from "../../../contract/products.js";
import { buildApp } from "../../app.js";
import { productAudit } from "../../db/schema.js";
import { testConfig } from "../../test/config.js";
import { signedIn } from "../../test/factories.js";
import { hugePng, multipart, plainPng, sidewaysPhoneJpeg, uploadPhoto } from "../../test/photo-files.js";
import { caller, recordEvents } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { listMedia } from "./media-store.js";
import { mediaNameOf } from "./photo-files.js";
import { photoQueue } from "./photo-processing.js";

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
/** Whether the file a photo URL names is in MEDIA_DIR. */
const onDisk = (url: string) => {
  const name = mediaNameOf(url);
  if (!name) throw new Error(`not a photo URL: ${url}`);
  return existsSync(join(mediaDir, name.slice(0, 2), name));
};
const removePhoto = (app: FastifyInstance, cookie: string, productId: number, photoId: number) =>
  app.inject({ method: "DELETE", url: `/api/products/${productId}/photos/${photoId}`, headers: { cookie } });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

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
    // No product shows b any more: its files are gone, while a's are served.
    expect((await getFile(t.app, b.thumbnail_url, manager.cookie)).statusCode).toBe(404);
    expect((await getFile(t.app, a.thumbnail_url, manager.cookie)).statusCode).toBe(200);
  });

  it("an edit opened before a photo change still saves (photos are not an edited field)", async () => {
    const product = await manager.call.create();
    await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#0000aa"));
    const res = await manager.call.put(`/api/products/${product.id}`, { vendor: "Panini", version: product.version });
    expect(res.statusCode).toBe(200);
    expect(res.json<Product>().photos).toHaveLength(1);
  });
});

describe("a removed photo's files", () => {
  it("are deleted once no product shows the picture: the URLs answer 404 (not cached), the audit keeps the entry", async () => {
    const product = await manager.call.create();
    const { photo } = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#c0ffee", 90, 60))).json<{ photo: Photo }>();
    expect([onDisk(photo.url), onDisk(photo.thumbnail_url)]).toEqual([true, true]);

    const removed = await removePhoto(t.app, inventory.cookie, product.id, photo.id);
    expect(removed.statusCode).toBe(200);
    expect([onDisk(photo.url), onDisk(photo.thumbnail_url)]).toEqual([false, false]);
    for (const url of [photo.url, photo.thumbnail_url]) {
      const gone = await getFile(t.app, url, streamer.cookie);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: PHOTO_MESSAGES.photoNotFound });
      expect(gone.headers["cache-control"]).toBe("no-store");
    }
    // The audit still lists the photo that was taken off (the screens show a placeholder for it).
    const last = (await auditOf(product.id)).at(-1);
    expect(last).toMatchObject({ changedFields: ["photos"], oldValues: { photos: [photo] }, newValues: { photos: [] } });

    // The same picture again: stored again under the same name, served again.
    const again = (await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#c0ffee", 90, 60))).json<{ photo: Photo }>();
    expect(again.photo.url).toBe(photo.url);
    expect((await getFile(t.app, again.photo.url, streamer.cookie)).statusCode).toBe(200);
  });

  it("stay while another product shows the same picture, a disabled one too, and go with the last", async () => {
    const [first, second] = [await manager.call.create(), await manager.call.create()];
    const picture = await plainPng("#0badf0", 80, 80);
    const onFirst = (await uploadPhoto(t.app, manager.cookie, first.id, picture)).json<{ photo: Photo }>().photo;
    const onSecond = (await uploadPhoto(t.app, manager.cookie, second.id, picture)).json<{ photo: Photo }>().photo;
    expect(onSecond.url).toBe(onFirst.url);
    const disabled = await manager.call.put(`/api/products/${second.id}/status`, { is_active: false });
    expect(disabled.json<Product>().is_active).toBe(false);

    expect((await removePhoto(t.app, manager.cookie, first.id, onFirst.id)).statusCode).toBe(200);
    expect([onDisk(onFirst.url), onDisk(onFirst.thumbnail_url)]).toEqual([true, true]);
    expect((await getFile(t.app, onFirst.url, streamer.cookie)).statusCode).toBe(200);

    expect((await removePhoto(t.app, manager.cookie, second.id, onSecond.id)).statusCode).toBe(200);
    expect([onDisk(onFirst.url), onDisk(onFirst.thumbnail_url)]).toEqual([false, false]);
    expect((await getFile(t.app, onFirst.url, streamer.cookie)).statusCode).toBe(404);
  });

  it("files stored for an upload that is refused after processing are not left behind", async () => {
    const product = await manager.call.create();
    for (const colour of ["#a01010", "#10a010", "#1010a0", "#a0a010", "#10a0a0"]) {
      expect((await uploadPhoto(t.app, manager.cookie, product.id, await plainPng(colour))).statusCode).toBe(201);
    }
    const files = await listMedia(mediaDir);
    // Two uploads pass the early check (5 photos) together; the second finds the product full in its transaction.
    const [one, two] = await Promise.all([
      uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#a010a0")),
      uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#f0f0f0")),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
    const kept = (one.statusCode === 201 ? one : two).json<{ photo: Photo }>().photo;
    expect((await listMedia(mediaDir)).length).toBe(files.length + 2);
    expect([onDisk(kept.url), onDisk(kept.thumbnail_url)]).toEqual([true, true]);
  });

  it("race: removed from one product while the same picture is uploaded to another (through a second app): every shown photo's files exist", async () => {
    // A second app on the same database and folder: on PostgreSQL its own pool, as another server process would be.
    const other = await buildApp({ config: testConfig({ MEDIA_DIR: mediaDir }), database: t.database, serveClient: false });
    try {
      await other.ready();
      const { cookie: otherCookie } = await signedIn(other, "manager");
      // How long an upload takes here, so the removals below land at every point of one: processing, storing, committing.
      const probe = await manager.call.create();
      const started = performance.now();
      await uploadPhoto(other, otherCookie, probe.id, await plainPng("#fe0000", 200, 150));
      const uploadMs = performance.now() - started;
      const rounds = 16;
      for (let round = 0; round < rounds; round++) {
        const picture = await plainPng(`#${(0x100000 + round * 0x0a0b).toString(16).slice(-6)}`, 200, 150);
        const [a, b] = [await manager.call.create(), await manager.call.create()];
        const onA = (await uploadPhoto(t.app, manager.cookie, a.id, picture)).json<{ photo: Photo }>().photo;
        const [removed, added] = await Promise.all([
          sleep((uploadMs * 1.2 * round) / rounds).then(() => removePhoto(t.app, manager.cookie, a.id, onA.id)),
          uploadPhoto(other, otherCookie, b.id, picture),
        ]);
        expect(removed.statusCode).toBe(200);
        expect(added.statusCode).toBe(201);
        const onB = added.json<{ photo: Photo }>().photo;
        expect(onB.url).toBe(onA.url);
        expect([round, onDisk(onB.url), onDisk(onB.thumbnail_url)]).toEqual([round, true, true]);
      }
      const shown = (await manager.call.get("/api/products")).json<Product[]>().flatMap((p) => p.photos);
      expect(shown.length).toBeGreaterThan(rounds);
      for (const photo of shown) {
        expect([photo.url, onDisk(photo.url), onDisk(photo.thumbnail_url)]).toEqual([photo.url, true, true]);
      }
    } finally {
      await other.close();
    }
  });
});

describe("what is decoded, and how many at once", () => {
  it("refuses a file whose first bytes are not a JPEG, PNG, WebP or HEIF picture's with 400, before any decoder runs", async () => {
    const product = await manager.call.create();
    const files = await listMedia(mediaDir);
    const small = sharp({ create: { width: 32, height: 32, channels: 3, background: "#884422" } });
    const notPictures: Record<string, Buffer> = {
      svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
      pdf: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
      tiff: await small.clone().tiff().toBuffer(),
      gif: await small.clone().gif().toBuffer(),
      random: randomBytes(4096),
      // A brand that is no picture's (an MP4 video's ftyp box).
      mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(64)]),
      // Half a PNG signature.
      "png-ish": Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(64)]),
    };
    // sharp reads each of them (they are real formats to libvips): only the first bytes keep it from doing so.
    for (const kind of ["tiff", "gif"]) expect((await sharp(notPictures[kind]).metadata()).format).toBe(kind);
    const decoded = photoQueue.seen.started;
    for (const [kind, data] of Object.entries(notPictures)) {
      const res = await uploadPhoto(t.app, manager.cookie, product.id, data, "card.png");
      expect([kind, res.statusCode, res.json()]).toEqual([kind, 400, { error: PHOTO_MESSAGES.notAnImage }]);
    }
    expect(photoQueue.seen.started).toBe(decoded);
    // Right first bytes, then nothing a decoder can read: refused by sharp, after its turn.
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2048)]);
    const fake = await uploadPhoto(t.app, manager.cookie, product.id, fakeJpeg, "card.jpg");
    expect(fake.statusCode).toBe(400);
    expect(photoQueue.seen.started).toBe(decoded + 1);
    expect(await listMedia(mediaDir)).toEqual(files);

    // The formats taken: a WebP and an AVIF (a HEIF brand), whatever their names.
    for (const [kind, data] of [
      ["webp", await small.clone().webp().toBuffer()],
      ["avif", await small.clone().avif().toBuffer()],
    ] as const) {
      const res = await uploadPhoto(t.app, manager.cookie, product.id, data, "card.png");
      expect([kind, res.statusCode]).toEqual([kind, 201]);
    }
  });

  it("processes at most two photos at once: six uploads together, two at a time, the others wait their turn", async () => {
    const product = await manager.call.create();
    const other = await manager.call.create();
    // Pictures that take sharp a while (noise does not compress), each different.
    const pictures = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => {
        const noise = Buffer.alloc(1200 * 900 * 3);
        for (let i = 0; i < noise.length; i++) noise[i] = ((i + n) * 2654435761) >>> 24;
        return sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } })
          .jpeg({ quality: 90 })
          .toBuffer();
      }),
    );
    photoQueue.resetPeaks();
    const before = photoQueue.seen.started;
    const answers = await Promise.all(pictures.map((p, i) => uploadPhoto(t.app, manager.cookie, i < 3 ? product.id : other.id, p)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(photoQueue.seen.started - before).toBe(6);
    expect(photoQueue.seen.peakRunning).toBe(2);
    expect(photoQueue.seen.peakWaiting).toBeGreaterThanOrEqual(1);
  });

  it("lets at most 20 more uploads wait: one more is refused with 503 and Retry-After, and nothing is stored", async () => {
    const product = await manager.call.create();
    const files = await listMedia(mediaDir);
    // Every place taken (2 being processed, 20 waiting), as 22 uploads under way would.
    const places = Array.from({ length: photoQueue.slots + photoQueue.maxWaiting }, () => photoQueue.enter());
    try {
      const refused = await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#999999"));
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ error: PHOTO_MESSAGES.busy });
      expect(refused.headers["retry-after"]).toBe("5");
    } finally {
      for (const leave of places) leave();
    }
    expect(await listMedia(mediaDir)).toEqual(files);
    expect((await uploadPhoto(t.app, manager.cookie, product.id, await plainPng("#999999"))).statusCode).toBe(201);
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
