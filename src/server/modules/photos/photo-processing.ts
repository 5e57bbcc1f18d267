import type { Metadata, default as Sharp } from "sharp";
import { PHOTO_EDGE, PHOTO_MAX_PIXELS, PHOTO_MESSAGES, THUMBNAIL_EDGE } from "../../../contract/photos.js";
import { badRequest } from "../../app-error.js";
import { PhotoQueue } from "./photo-queue.js";

/**
 * The kinds of picture a shop's phone or laptop sends, told by their first bytes, and the formats
 * libvips may report for each: JPEG, PNG, WebP, and HEIF (HEIC and AVIF, where libvips decodes them).
 */
type PictureKind = "jpeg" | "png" | "webp" | "heif";
const LIBVIPS_FORMATS: Record<PictureKind, ReadonlySet<string>> = {
  jpeg: new Set(["jpeg"]),
  png: new Set(["png"]),
  webp: new Set(["webp"]),
  heif: new Set(["heif", "avif"]),
};
/** The ISO base media file brands (`ftyp`) of HEIC, HEIF and AVIF pictures. */
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "mif1", "msf1", "avif"]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What kind of picture the bytes begin as (their magic numbers), or undefined. Checked before any
 * decoder sees the file: libvips reads dozens of formats (SVG, PDF, TIFF, FITS, ...), each parser
 * more attack surface, and it must only ever be handed the four we take.
 */
export function pictureKind(data: Buffer): PictureKind | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return "png";
  if (data.toString("latin1", 0, 4) === "RIFF" && data.toString("latin1", 8, 12) === "WEBP") return "webp";
  if (data.toString("latin1", 4, 8) === "ftyp" && HEIF_BRANDS.has(data.toString("latin1", 8, 12))) return "heif";
  return undefined;
}

/**
 * Photos decoded at once in this process: two (sharp shares libuv's thread pool with file serving
 * and password hashing); at most twenty more uploads wait their turn, any more get 503.
 */
export const photoQueue = new PhotoQueue(2, 20);

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded with the first photo: libvips and its libraries take about 30 MB of the process's
 * memory, which a server that is sent no photo need not hold (issue 42).
 */
function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then(
    ({ default: sharp }) => {
      // Photos are processed once each: libvips' operation cache would only hold memory.
      sharp.cache(false);
      return sharp;
    },
    (err: unknown) => {
      loading = undefined; // the next photo tries again
      throw err;
    },
  );
  return loading;
}

export interface StoredImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface ProcessedPhoto {
  photo: StoredImage;
  thumbnail: StoredImage;
}

/**
 * Turns an upload into the files a product shows: upright by its EXIF orientation, at most
 * PHOTO_EDGE pixels a side, WebP, with every metadata field dropped (EXIF with the shop's GPS
 * position, XMP, IPTC, the ICC profile: sharp converts to sRGB and writes none of them unless
 * asked), and a THUMBNAIL_EDGE thumbnail made from it. Refused with 400: a file whose first bytes
 * are not a JPEG, PNG, WebP or HEIF picture's, before any decoder runs, whatever the file's name;
 * then anything sharp cannot read as that format, and images over PHOTO_MAX_PIXELS, which are
 * refused from their header, before a pixel is decoded. The decoding waits its turn in photoQueue.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  const kind = pictureKind(input);
  if (!kind) throw badRequest(PHOTO_MESSAGES.notAnImage);
  return photoQueue.run(() => decode(input, kind));
}

async function decode(input: Buffer, kind: PictureKind): Promise<ProcessedPhoto> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    // The header only (no pixel is decoded), whatever its size: the pixel count is checked below, with its own message.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(PHOTO_MESSAGES.notAnImage);
  }
  if (!metadata.format || !LIBVIPS_FORMATS[kind].has(metadata.format) || !metadata.width || !metadata.height) {
    throw badRequest(PHOTO_MESSAGES.notAnImage);
  }
  if (metadata.width * metadata.height > PHOTO_MAX_PIXELS) throw badRequest(PHOTO_MESSAGES.tooManyPixels);
  try {
    // limitInputPixels again: the decoder itself refuses a header that lied.
    const photo = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: PHOTO_EDGE, height: PHOTO_EDGE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(photo.data)
      .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer({ resolveWithObject: true });
    return {
      photo: { data: photo.data, width: photo.info.width, height: photo.info.height },
      thumbnail: { data: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
    };
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw badRequest(PHOTO_MESSAGES.tooManyPixels);
    throw badRequest(PHOTO_MESSAGES.unreadable);
  }
}
