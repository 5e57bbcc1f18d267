import sharp, { type Metadata } from "sharp";
import { PHOTO_EDGE, PHOTO_MAX_PIXELS, PHOTO_MESSAGES, THUMBNAIL_EDGE } from "../../../contract/photos.js";
import { badRequest } from "../../app-error.js";

/** What sharp reads that a shop's phone or laptop sends: JPEG, PNG, WebP, and HEIF (HEIC and AVIF) where libvips decodes it. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif"]);

// Photos are processed once each: libvips' operation cache would only hold memory.
sharp.cache(false);

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
 * asked), and a THUMBNAIL_EDGE thumbnail made from it. Refused with 400: anything sharp cannot
 * read as one of the accepted formats, whatever the file's name, and images over
 * PHOTO_MAX_PIXELS, which are refused from their header, before a pixel is decoded.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  let metadata: Metadata;
  try {
    // The header only (no pixel is decoded), whatever its size: the pixel count is checked below, with its own message.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(PHOTO_MESSAGES.notAnImage);
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format) || !metadata.width || !metadata.height) {
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
