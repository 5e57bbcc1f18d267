import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { importBodySchema, importPreviewSchema, importQuerySchema, importResultSchema } from "../../../contract/import.js";
import type { ZodApp } from "../../app.js";
import { requireActor, serviceContext } from "../../plugins/auth.js";
import { importProducts, previewImport } from "./import.service.js";

/** 401 before any input validation. */
const signedInOnly = async (request: FastifyRequest) => {
  requireActor(request);
};

/** POST /api/products/import (API contract, Import and Import preview). */
export async function importRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/products/import",
    {
      onRequest: signedInOnly,
      schema: {
        tags: ["products"],
        security: [{ session: [] }],
        summary: "Import products by barcode; ?dry_run=true previews without writing",
        querystring: importQuerySchema,
        body: importBodySchema,
        response: { 200: z.union([importPreviewSchema, importResultSchema]) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      return request.query.dry_run ? previewImport(ctx, request.body.products) : importProducts(ctx, request.body.products);
    },
  );
}
