import type { Readable } from "node:stream";
import type { FastifyRequest, FastifySchemaCompiler } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type ImportRowInput,
  importBodySchema,
  importPreviewSchema,
  importQuerySchema,
  importResultSchema,
} from "../../../contract/import.js";
import { AppError } from "../../app-error.js";
import { IMPORT_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { previewImport } from "./import.service.js";
import { ImportBody, readImportBody } from "./import-body.js";
import { importInOneCall } from "./import-jobs.js";
import { importJobRoutes } from "./import-jobs.routes.js";
import { importsRoutes } from "./imports.routes.js";

/** A body the import routes' parser read (ImportBody) passes; anything else is checked by its zod schema. */
const bodyValidator: FastifySchemaCompiler<z.ZodType> = (route) => {
  if (route.httpPart !== "body") return validatorCompiler(route);
  return (data) => (data instanceof ImportBody ? { value: data } : { error: new AppError(400, "products must be a list of rows") });
};

/**
 * The import routes, in a scope whose JSON bodies are read by readImportBody: a large body is
 * parsed, checked and cut into chunks in a worker thread, never in one piece on the event loop.
 */
export async function importRoutes(app: ZodApp): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    // No parseAs: the parser gets the request's stream, so a large body goes to the reading thread
    // piece by piece as it arrives (readImportBody), never joined on the event loop.
    scope.addContentTypeParser("application/json", async (request: FastifyRequest, payload: Readable) => {
      const read = await readImportBody({
        payload,
        limit: request.routeOptions.bodyLimit,
        contentLength: Number(request.headers["content-length"]),
      });
      if (read === undefined) return undefined;
      if (!read.ok) {
        if (read.cause) request.log.error({ cause: read.cause }, "an import body could not be read");
        throw new AppError(read.status ?? 400, read.message, { details: read.details });
      }
      return new ImportBody(read.bytes, read.ends, read.rowCount, read.firstRow);
    });
    scope.setValidatorCompiler(bodyValidator);
    const zscope = scope.withTypeProvider<ZodTypeProvider>();
    await importCallRoutes(zscope);
    await importJobRoutes(zscope);
  });
  // Listing and undoing read no rows: an ordinary JSON body (say `{}` from a client that always sends one) is fine.
  await importsRoutes(app);
}

/** POST /api/products/import: an import in one call, or with ?dry_run=true what it would do. */
async function importCallRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/products/import",
    {
      config: { permission: "canManageProducts" },
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      schema: {
        tags: ["products"],
        security: SESSION_OR_TOKEN,
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
      const body = request.body as unknown as ImportBody;
      if (request.query.dry_run) return previewImport(ctx, (await body.rows()) as ImportRowInput[], body.firstRow);
      return importInOneCall(ctx, { database: app.database, runner: app.importRunner }, body);
    },
  );
}
