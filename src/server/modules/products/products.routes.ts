import { createGunzip } from "node:zlib";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import { errorBodySchema } from "../../../contract/errors.js";
import {
  barcodeParamsSchema,
  createProductBodySchema,
  idempotencyKeySchema,
  productSchema,
  productStatusBodySchema,
  productsSinceQuerySchema,
  productsSinceSchema,
  quantityChangeBodySchema,
  shopCodeSchema,
  updateProductBodySchema,
  versionConflictBodySchema,
} from "../../../contract/products.js";
import { CATALOGUE_REVISION_HEADER, IDEMPOTENCY_HEADER } from "../../../contract/rules.js";
import { describedError, errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { CATALOGUE_CACHE_DEFAULTS, CatalogueCache, pickEncoding } from "./catalogue-cache.js";
import { buffersStream } from "./json-parts.js";
import { EDIT_RULES, updateProduct } from "./product-edit.service.js";
import { productJsonText } from "./products.presenter.js";
import {
  catalogueSource,
  changeQuantity,
  createProduct,
  getProductJsonByBarcode,
  newShopCode,
  readCatalogue,
  setProductStatus,
} from "./products.service.js";

const tags = ["products"];
/** How barcodes are compared (contract/gtin.ts), in the OpenAPI description of lookup, create, edit and import. */
const GTIN_RULES =
  "Barcodes are compared as GTINs: numeric codes of 8, 12, 13 or 14 digits with a valid GS1 check digit are the same " +
  "product when they are the same GTIN-14 (UPC-A `820650853548` = EAN-13 `0820650853548`; a code that lost its leading " +
  "zeros, down to 6 digits, is recognised; an 8-digit UPC-E is its UPC-A). Any other code (Code 128 labels, `SC-...`, " +
  "numbers without a valid check digit) compares exactly. Two products cannot be the same GTIN (409); the stored " +
  "barcode keeps what was typed or scanned.";
const security = SESSION_OR_TOKEN;
const manageProducts = { permission: "canManageProducts" } as const;
/** Any signed-in user; an API token with products:read. */
const readProducts = { scope: "products:read" } as const;
/** Output chunks when the list is sent uncompressed. */
const GUNZIP_CHUNK_BYTES = 256 * 1024;
/**
 * The scan's and the tap's answers (one product, about 0.5 to 1.5 KB) go out uncompressed, and
 * their bodies are never compressed: a product fits in one or two network packets either way,
 * while compressing a kilobyte takes 30 to 40 µs of CPU, a third of a whole lookup. The hottest
 * routes also skip the compression plugin's three hooks then (bench/hot-paths).
 */
const ONE_PRODUCT_ANSWER = { compress: false, decompress: false } as const;
const quantityHeadersSchema = z.object({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

/** Products: list, lookup by barcode, create, edit, stock change, status. */
export async function productsRoutes(app: ZodApp): Promise<void> {
  const catalogue = new CatalogueCache(
    catalogueSource(app.db),
    {
      ...CATALOGUE_CACHE_DEFAULTS,
      catchUpBetweenBuilds: app.database.kind === "postgres",
      busy: () => app.importRunner.writing,
    },
    app.log,
  );
  // Kept warm from start (the database is migrated by then) until close: see CatalogueCache.
  app.addHook("onReady", async () => catalogue.start());
  app.addHook("onClose", async () => catalogue.stop());
  app.get(
    "/products",
    {
      config: readProducts,
      schema: {
        tags,
        security,
        summary: "All products, newest first; with ?since=R only those changed after revision R; with ?limit=N the first N",
        description:
          "Without `since`: the array of all products, newest first, with `X-Catalogue-Revision` (every change up to it " +
          "is in the list) and, when no change is in flight, an `ETag`; a matching `If-None-Match` answers 304. With " +
          "`since`: `{revision, products}`, every product whose revision is above `since` (disabled ones too). With " +
          "`catch_up=true` (the caller fetches ?since=R right after), the list may be a shared snapshot a few changes " +
          "behind the latest: complete up to the revision it names. With `limit=N` (not with `since`): only the " +
          "list's first N products (newest first, as the whole list begins now), with `X-Catalogue-Revision` and no " +
          "`ETag`: a first screenful while the whole list downloads.",
        querystring: productsSinceQuerySchema,
        response: { 200: z.union([z.array(productSchema), productsSinceSchema]), ...errorAnswers(400, 401, 503) },
      },
    },
    async (request, typedReply) => {
      const answer = await readCatalogue(serviceContext(app, request), catalogue, {
        since: request.query.since,
        catchUp: request.query.catch_up,
        limit: request.query.limit,
        ifNoneMatch: request.headers["if-none-match"],
      });
      // The typed reply knows only the schema's shapes; this one sends JSON text or a 304.
      const reply = typedReply as unknown as FastifyReply;
      reply.header(CATALOGUE_REVISION_HEADER, String(answer.revision));
      // Unlike the other API answers (no-store): browsers keep the list but ask again each time,
      // and a current copy costs a 304.
      reply.header("cache-control", "private, no-cache");
      if (answer.etag) reply.header("etag", answer.etag);
      reply.type("application/json; charset=utf-8");
      // Already JSON text from the database: sent as it is, past the response serialiser.
      if (answer.since !== undefined) return reply.send(answer.since.stream());
      if (answer.first !== undefined) return reply.send(answer.first.stream());
      if (!answer.list) return reply.code(304).send();
      // The snapshot's own compressed copies: no compression work per request.
      const encoding = pickEncoding(request.headers["accept-encoding"]);
      reply.header("vary", "accept-encoding");
      if (encoding) reply.header("content-encoding", encoding);
      if (encoding) {
        reply.header("content-length", String(answer.list[encoding].length));
        return reply.send(buffersStream(answer.list[encoding].chunks));
      }
      // No compression asked for (rare: browsers and fetch ask for gzip): the gzip copy decompressed
      // as it is sent (in the thread pool, part by part: never one buffer of the whole list).
      reply.header("content-length", String(answer.list.bytes));
      return reply.send(buffersStream(answer.list.gzip.chunks).pipe(createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES })));
    },
  );

  app.get(
    "/products/barcode/:barcode",
    {
      ...ONE_PRODUCT_ANSWER,
      config: readProducts,
      schema: {
        tags,
        security,
        summary: "A product by barcode (active or not), compared as GTINs",
        description: GTIN_RULES,
        params: barcodeParamsSchema,
        response: { 200: productSchema, ...errorAnswers(400, 401, 404, 503) },
      },
    },
    async (request, typedReply) => {
      const json = await getProductJsonByBarcode(serviceContext(app, request), request.params.barcode);
      // JSON text from the database (product_json_text()): sent as it is, past the response serialiser.
      return (typedReply as unknown as FastifyReply).type("application/json; charset=utf-8").send(json);
    },
  );

  app.post(
    "/products",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "Create a product (409 when its barcode, or another form of the same GTIN, exists)",
        description: GTIN_RULES,
        body: createProductBodySchema,
        response: { 201: productSchema, ...errorAnswers(400, 401, 403, 409, 413, 503) },
      },
    },
    async (request, reply) => {
      const product = await createProduct(serviceContext(app, request), request.body);
      return reply.code(201).send(product);
    },
  );

  app.put(
    "/products/:id",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "Edit some or all of a product's fields (optional version: conflicting stale edits answer 409)",
        description: `${EDIT_RULES} ${GTIN_RULES}`,
        params: idParamsSchema,
        body: updateProductBodySchema,
        response: {
          200: productSchema,
          ...errorAnswers(400, 401, 403, 404, 413, 503),
          409: describedError(409, z.union([versionConflictBodySchema, errorBodySchema])),
        },
      },
    },
    async (request) => updateProduct(serviceContext(app, request), request.params.id, request.body),
  );

  app.put(
    "/products/:id/quantity",
    {
      ...ONE_PRODUCT_ANSWER,
      config: { permission: "canUpdateQuantity" },
      schema: {
        tags,
        security,
        summary: "Change the stock by a signed amount (optional Idempotency-Key header)",
        params: idParamsSchema,
        headers: quantityHeadersSchema,
        body: quantityChangeBodySchema,
        response: { 200: productSchema, ...errorAnswers(400, 401, 403, 404, 409, 413, 422, 503) },
      },
    },
    async (request, typedReply) => {
      const product = await changeQuantity(
        serviceContext(app, request),
        request.params.id,
        request.body,
        request.headers[IDEMPOTENCY_HEADER],
      );
      // The database's product (product_json(), the schema's shape) as text in the schema's key order, past the response serialiser.
      return (typedReply as unknown as FastifyReply).type("application/json; charset=utf-8").send(productJsonText(product));
    },
  );

  app.post(
    "/products/shop-code",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "A new shop code (SC-000123) for a product without a scannable barcode",
        description:
          "Answers a code no product has and none was handed out before (a database sequence, also across server " +
          "processes); nothing is stored until a product is created with it.",
        response: { 200: shopCodeSchema, ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => ({ barcode: await newShopCode(serviceContext(app, request)) }),
  );

  app.put(
    "/products/:id/status",
    {
      config: manageProducts,
      schema: {
        tags,
        security,
        summary: "Disable or enable a product",
        params: idParamsSchema,
        body: productStatusBodySchema,
        response: { 200: productSchema, ...errorAnswers(400, 401, 403, 404, 413, 503) },
      },
    },
    async (request) => setProductStatus(serviceContext(app, request), request.params.id, request.body.is_active),
  );
}
