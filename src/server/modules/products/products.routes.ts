import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  barcodeParamsSchema,
  CATALOGUE_REVISION_HEADER,
  createProductBodySchema,
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  productSchema,
  productStatusBodySchema,
  productsSinceQuerySchema,
  productsSinceSchema,
  quantityChangeBodySchema,
  updateProductBodySchema,
} from "../../../contract/products.js";
import { idParamsSchema } from "../../../contract/users.js";
import type { ZodApp } from "../../app.js";
import { requireActor, serviceContext } from "../../plugins/auth.js";
import { EDIT_RULES, updateProduct } from "./product-edit.service.js";
import { changeQuantity, createProduct, getProductByBarcode, readCatalogue, setProductStatus } from "./products.service.js";

const tags = ["products"];
const security = [{ session: [] }];
/** 401 before any input validation: a signed-out caller learns nothing about the input rules. */
const signedInOnly = async (request: FastifyRequest) => {
  requireActor(request);
};
const quantityHeadersSchema = z.object({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

/** Products: list, lookup by barcode, create, edit, stock change, status (API contract, Products). */
export async function productsRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/products",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "All products, newest first; with ?since=R only those changed after revision R",
        description:
          "Without `since`: the array of all products, newest first, with `X-Catalogue-Revision` (every change up to it " +
          "is in the list) and, when no change is in flight, an `ETag`; a matching `If-None-Match` answers 304. With " +
          "`since`: `{revision, products}`, every product whose revision is above `since` (disabled ones too).",
        querystring: productsSinceQuerySchema,
        response: { 200: z.union([z.array(productSchema), productsSinceSchema]) },
      },
    },
    async (request, typedReply) => {
      const answer = await readCatalogue(serviceContext(app, request), request.query.since, request.headers["if-none-match"]);
      // The typed reply knows only the schema's shapes; this one sends JSON text or a 304.
      const reply = typedReply as unknown as FastifyReply;
      reply.header(CATALOGUE_REVISION_HEADER, String(answer.revision));
      // Browsers keep the list but ask again each time; a current copy costs a 304.
      reply.header("cache-control", "private, no-cache");
      if (answer.etag) reply.header("etag", answer.etag);
      if (answer.json === undefined) return reply.code(304).send();
      // Already JSON text from the database: sent as it is, past the response serialiser.
      return reply.type("application/json; charset=utf-8").send(answer.json);
    },
  );

  app.get(
    "/products/barcode/:barcode",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "A product by barcode (active or not)",
        params: barcodeParamsSchema,
        response: { 200: productSchema },
      },
    },
    async (request) => getProductByBarcode(serviceContext(app, request), request.params.barcode),
  );

  app.post(
    "/products",
    {
      onRequest: signedInOnly,
      schema: { tags, security, summary: "Create a product", body: createProductBodySchema, response: { 201: productSchema } },
    },
    async (request, reply) => {
      const product = await createProduct(serviceContext(app, request), request.body);
      return reply.code(201).send(product);
    },
  );

  app.put(
    "/products/:id",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "Edit some or all of a product's fields (optional version: conflicting stale edits answer 409)",
        description: EDIT_RULES,
        params: idParamsSchema,
        body: updateProductBodySchema,
        response: { 200: productSchema },
      },
    },
    async (request) => updateProduct(serviceContext(app, request), request.params.id, request.body),
  );

  app.put(
    "/products/:id/quantity",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "Change the stock by a signed amount (optional Idempotency-Key header)",
        params: idParamsSchema,
        headers: quantityHeadersSchema,
        body: quantityChangeBodySchema,
        response: { 200: productSchema },
      },
    },
    async (request) => changeQuantity(serviceContext(app, request), request.params.id, request.body, request.headers[IDEMPOTENCY_HEADER]),
  );

  app.put(
    "/products/:id/status",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "Disable or enable a product",
        params: idParamsSchema,
        body: productStatusBodySchema,
        response: { 200: productSchema },
      },
    },
    async (request) => setProductStatus(serviceContext(app, request), request.params.id, request.body.is_active),
  );
}
