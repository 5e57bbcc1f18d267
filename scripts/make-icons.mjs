// Draws the app's icons (a white barcode on the brand blue) as PNGs for the web app manifest:
// node scripts/make-icons.mjs writes src/client/public/icons/*.png. No image library needed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BLUE = [0x25, 0x63, 0xeb];
const WHITE = [0xff, 0xff, 0xff];
/** Bar widths (in units) of the mark: a barcode-like pattern. */
const BARS = [2, 1, 1, 3, 1, 2, 2, 1, 3, 1, 1, 2, 1, 1, 2];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** `size` px square; `maskable`: full-bleed blue with the mark inside the safe zone (80 %). */
function icon(size, maskable) {
  const px = Buffer.alloc(size * size * 4);
  const radius = maskable ? 0 : size * 0.18;
  const inside = (x, y) => {
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  const units = BARS.reduce((a, b) => a + b, 0) + BARS.length - 1;
  const markWidth = size * (maskable ? 0.5 : 0.62);
  const unit = markWidth / units;
  const left = (size - markWidth) / 2;
  const top = size * (maskable ? 0.3 : 0.24);
  const bottom = size * (maskable ? 0.7 : 0.76);
  const bars = [];
  let at = left;
  for (const w of BARS) {
    bars.push([at, at + w * unit]);
    at += (w + 1) * unit;
  }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      if (!inside(x + 0.5, y + 0.5)) continue;
      const bar = y >= top && y < bottom && bars.some(([a, b]) => x + 0.5 >= a && x + 0.5 < b);
      const [r, g, b] = bar ? WHITE : BLUE;
      px[i] = r;
      px[i + 1] = g;
      px[i + 2] = b;
      px[i + 3] = 255;
    }
  }
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) px.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const out = new URL("../src/client/public/icons/", import.meta.url);
for (const [name, size, maskable] of [
  ["icon-192.png", 192, false],
  ["icon-512.png", 512, false],
  ["maskable-512.png", 512, true],
  ["apple-touch-icon.png", 180, true],
]) {
  writeFileSync(new URL(name, out), icon(size, maskable));
}
console.log("icons written to src/client/public/icons");
