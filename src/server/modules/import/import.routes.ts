import { z } from "zod";
import { importBodySchema, importPreviewSchema, importQuerySchema, importResultSchema } from "../../../contract/import.js";
import type { ZodApp } from "../../app.js";
import { IMPORT_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import { importProducts, previewImport } from "./import.service.js";
import { importJobRoutes } from "./import-jobs.routes.js";

/** POST /api/products/import (API contract, Import and Import preview). */
export async function importRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/products/import",
    {
      config: { permission: "canManageProducts" },
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      schema: {
        tags: ["products"],
        security: [{ session: [] }],
        summary: "Import products by barcode; ?dry_run=true previews without writing",
        description:
          "Rows are matched to existing products by exact barcode, else by GTIN: a file whose barcodes lost their leading " +
          "zeros (a spreadsheet round trip) updates the products instead of creating them again, and the stored barcode " +
          "keeps its form. Two rows that are the same GTIN: the later one is reported as a duplicate.",
        querystring: importQuerySchema,
        body: importBodySchema,
        response: { 200: z.union([importPreviewSchema, importResultSchema]), ...errorAnswers(400, 401, 403, 413, 503) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const { products, first_row: firstRow } = request.body;
      return request.query.dry_run ? previewImport(ctx, products, firstRow) : importProducts(ctx, products, firstRow);
    },
  );
  await importJobRoutes(app);
}
