import { z } from "zod";
import { importBodySchema, importPreviewSchema, importQuerySchema, importResultSchema } from "../../../contract/import.js";
import type { ZodApp } from "../../app.js";
import { IMPORT_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import { previewImport } from "./import.service.js";
import { importInOneCall, rowInputs } from "./import-jobs.js";
import { importJobRoutes } from "./import-jobs.routes.js";
import { importsRoutes } from "./imports.routes.js";

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
          "keeps its form. Two rows that are the same GTIN: the later one is reported as a duplicate. The import is a " +
          "durable job written in short transactions (GET /api/imports, undo); the answer waits for it and names it " +
          "(import_id). A row with the export's updated_at merges: a field the file leaves as exported never overwrites " +
          "a change made since, and a field it changes that someone changed since is left alone and reported.",
        querystring: importQuerySchema,
        body: importBodySchema,
        response: { 200: z.union([importPreviewSchema, importResultSchema]), ...errorAnswers(400, 401, 403, 413, 503) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      const { first_row: firstRow } = request.body;
      const products = await rowInputs(request.body.products);
      if (request.query.dry_run) return previewImport(ctx, products, firstRow);
      return importInOneCall(ctx, { database: app.database, runner: app.importRunner }, products, firstRow);
    },
  );
  await importJobRoutes(app);
  await importsRoutes(app);
}
