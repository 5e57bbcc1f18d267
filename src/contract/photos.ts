import { z } from "zod";

/**
 * Product photos: up to PHOTOS_MAX per product, ordered, the first is the cover. Stored upright,
 * without metadata, as WebP of at most PHOTO_EDGE pixels a side with a THUMBNAIL_EDGE thumbnail,
 * in files named by their content's hash and served at MEDIA_PATH to signed-in users only; a
 * file is deleted once no product shows it (its URL then answers 404).
 */
export const PHOTOS_MAX = 6;
/** An upload larger than this is refused with 413. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** An image with more pixels than this is refused before it is decoded (decompression bombs). */
export const PHOTO_MAX_PIXELS = 50_000_000;
/** The longest side of a stored photo and of its thumbnail. */
export const PHOTO_EDGE = 1600;
export const THUMBNAIL_EDGE = 320;
/** Where photo files are served: MEDIA_PATH/<sha-256 of the file>.webp. */
export const MEDIA_PATH = "/api/media";
/** How a stored file is named: its content's SHA-256 in hex and its format. */
export const MEDIA_NAME = /^[0-9a-f]{64}\.(webp|jpg)$/;
/** The multipart field an upload's file travels in. */
export const PHOTO_FIELD = "file";

export const PHOTO_MESSAGES = {
  notAnImage: "This file is not a photo: send a JPEG, PNG, WebP, HEIC or AVIF image",
  unreadable: "This photo could not be read: send it as a JPEG, PNG or WebP image",
  tooManyPixels: `This photo is too large: at most ${PHOTO_MAX_PIXELS / 1_000_000} megapixels`,
  tooLarge: `This photo is too large: at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB`,
  noFile: `Send the photo as multipart/form-data in a field named "${PHOTO_FIELD}"`,
  tooMany: `A product has at most ${PHOTOS_MAX} photos: remove one first`,
  photoNotFound: "Photo not found",
  busy: "The server is busy with other photos: try again in a few seconds",
  orderMismatch: "The order must list each of the product's photos once",
} as const;

/** One photo as every answer that carries a product lists it. */
export const photoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  thumbnail_url: z.string(),
  /** The stored photo's size in pixels (upright): the screens reserve its box before it loads. */
  width: z.number().int(),
  height: z.number().int(),
});
export type Photo = z.infer<typeof photoSchema>;

export const photoParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  photo: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const mediaParamsSchema = z.object({
  name: z.string().regex(MEDIA_NAME, "Not a photo file name"),
});

/** PUT /api/products/{id}/photos: the product's photo ids in their new order, the cover first. */
export const photoOrderBodySchema = z.object({
  order: z.array(z.number().int().positive()).max(PHOTOS_MAX, PHOTO_MESSAGES.orderMismatch),
});
export type PhotoOrderBody = z.infer<typeof photoOrderBodySchema>;
