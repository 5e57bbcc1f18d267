import { crc32, deflateSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";

/** Pictures made in the test with sharp (or by hand), and an upload the way a browser sends one. */

/**
 * A phone photo: 400 x 200 pixels stored sideways, red on the left and blue on the right, with
 * EXIF orientation 6 (turn 90 degrees clockwise to see it upright: red on top, 200 x 400), a
 * camera make and GPS tags (the shop's position).
 */
export async function sidewaysPhoneJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: "#ff0000" } })
    .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: "#0000ff" } }, left: 200, top: 0 }])
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "PhoneCo", Model: "Shop Phone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2964/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 17/1 4000/100" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A plain picture of one colour (different colours are different pictures). */
export function plainPng(colour: string, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/**
 * A valid PNG of width x height pixels, 1 bit per pixel, all black: 20,000 x 20,000 is 400
 * megapixels in a file of some 50 KB (what a decompression bomb looks like).
 */
export function hugePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter method, no interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // each row: filter 0, then zero bits
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with one `file` field, as a browser's FormData sends it. */
export async function multipart(data: Buffer, filename: string, type = "image/jpeg", field = "file") {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type }), filename);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") as string };
}

/** POST /api/products/{id}/photos through the app. */
export async function uploadPhoto(app: FastifyInstance, cookie: string, productId: number, data: Buffer, filename = "photo.jpg") {
  const body = await multipart(data, filename);
  return app.inject({
    method: "POST",
    url: `/api/products/${productId}/photos`,
    headers: { cookie, "content-type": body.contentType },
    payload: body.payload,
  });
}
