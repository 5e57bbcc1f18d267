import fastifyMultipart from "@fastify/multipart";
import type { FastifyReply } from "fastify";
import { idParamsSchema } from "../../../contract/common.js";
import {
  mediaParamsSchema,
  PHOTO_FIELD,
  PHOTO_MAX_BYTES,
  PHOTO_MESSAGES,
  photoOrderBodySchema,
  photoParamsSchema,
} from "../../../contract/photos.js";
import { photoAddedSchema, productAnswerSchema } from "../../../contract/products.js";
import { AppError, badRequest, notFound } from "../../app-error.js";
import { mediaDirOf } from "../../config.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { MediaStore } from "./media-store.js";
import { PhotoFiles } from "./photo-files.js";
import { photoQueue } from "./photo-processing.js";
import { addPhoto, removePhoto, reorderPhotos } from "./photos.service.js";

const tags = ["photos"];
const security = SESSION_OR_TOKEN;
const manageProducts = { permission: "canManageProducts" } as const;
/** Photo files never change under their name (it is their content's hash): browsers keep them (a deleted one's 404 is not kept). */
const MEDIA_CACHE = "private, max-age=31536000, immutable";

/** Product photos: add (multipart upload), remove, reorder; and the photo files, to signed-in users only. */
export async function photosRoutes(parent: ZodApp): Promise<void> {
  const media = new MediaStore(mediaDirOf(parent.config));
  const files = new PhotoFiles(parent.db, media, parent.log);
  parent.addHook("onClose", async () => files.close());
  // Multipart bodies are read by these routes only.
  await parent.register(async (app: ZodApp) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 },
    });

    app.post(
      "/products/:id/photos",
      {
        config: manageProducts,
        schema: {
          tags,
          security,
          summary: "Add a photo to a product (multipart/form-data, one `file` field)",
          description:
            "The picture is turned upright by its EXIF orientation, stripped of every metadata field and stored as WebP of at " +
            "most 1600 pixels a side with a 320-pixel thumbnail; it becomes the product's last photo (the first is the " +
            "cover). 201 `{photo, product}`; 200 with the photo it has when the product already shows the same picture. " +
            "400 for a file that is not a JPEG, PNG, WebP, HEIC or AVIF image (told by its first bytes, before any decoder " +
            "runs) sharp can read, or over 50 megapixels; 413 over 15 MB; 409 when the product has 6 photos; 503 with " +
            "Retry-After while 22 uploads are already being read or processed (two are processed at a time).",
          consumes: ["multipart/form-data"],
          params: idParamsSchema,
          response: { 200: photoAddedSchema, 201: photoAddedSchema, ...errorAnswers(400, 401, 403, 404, 409, 413, 503) },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw badRequest(PHOTO_MESSAGES.noFile);
        // A place in the photo queue before the body is read: uploads waiting their turn are bounded, and so is their memory.
        const leave = photoQueue.enter();
        try {
          const file = await request.file();
          if (!file || file.fieldname !== PHOTO_FIELD) throw badRequest(PHOTO_MESSAGES.noFile);
          let upload: Buffer;
          try {
            upload = await file.toBuffer();
          } catch (err) {
            if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(413, PHOTO_MESSAGES.tooLarge);
            throw err;
          }
          const { photo, product, created } = await addPhoto(serviceContext(app, request), files, request.params.id, upload);
          return reply.code(created ? 201 : 200).send({ photo, product });
        } finally {
          leave();
        }
      },
    );
  });

  parent.delete(
    "/products/:id/photos/:photo",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "Remove a photo from a product (its file is deleted once no product shows the picture)",
        params: photoParamsSchema,
        response: { 200: productAnswerSchema, ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request) => ({
      product: await removePhoto(serviceContext(parent, request), files, request.params.id, request.params.photo),
    }),
  );

  parent.put(
    "/products/:id/photos",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "Put a product's photos in a new order (the first is the cover)",
        params: idParamsSchema,
        body: photoOrderBodySchema,
        response: { 200: productAnswerSchema, ...errorAnswers(400, 401, 403, 404, 413, 503) },
      },
    },
    async (request) => ({ product: await reorderPhotos(serviceContext(parent, request), request.params.id, request.body.order) }),
  );

  // Through the one auth layer like every /api route: a signed-in session, or an API token with products:read.
  parent.get(
    "/media/:name",
    {
      config: { scope: "products:read" },
      schema: {
        tags,
        security,
        summary: "A photo file (its URL comes with the product), to a signed-in session or a token with products:read",
        params: mediaParamsSchema,
        response: errorAnswers(400, 401, 404),
      },
    },
    async (request, typedReply) => {
      const file = await media.open(request.params.name);
      if (!file) throw notFound(PHOTO_MESSAGES.photoNotFound);
      const reply = typedReply as unknown as FastifyReply;
      return reply
        .header("cache-control", MEDIA_CACHE)
        .header("content-length", String(file.size))
        .type(request.params.name.endsWith(".jpg") ? "image/jpeg" : "image/webp")
        .send(file.stream);
    },
  );
}
