import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  barcodeParamsSchema,
  createProductBodySchema,
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  productSchema,
  productStatusBodySchema,
  quantityChangeBodySchema,
  updateProductBodySchema,
} from "../../../contract/products.js";
import { idParamsSchema } from "../../../contract/users.js";
import type { ZodApp } from "../../app.js";
import { requireActor, serviceContext } from "../../plugins/auth.js";
import { changeQuantity, createProduct, getProductByBarcode, listProducts, setProductStatus, updateProduct } from "./products.service.js";

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
      schema: { tags, security, summary: "All products, newest first", response: { 200: z.array(productSchema) } },
    },
    async (request) => listProducts(serviceContext(app, request)),
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
        summary: "Edit a product (optional version: a stale one is refused with 409)",
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
