import {
  type ImportRowInput,
  importJobParamsSchema,
  importJobSchema,
  importPartBodySchema,
  importPartParamsSchema,
} from "../../../contract/import.js";
import type { ZodApp } from "../../app.js";
import { AppError } from "../../app-error.js";
import { IMPORT_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers } from "../../openapi.js";
import { requirePermission } from "../../permissions.js";
import { serviceContext } from "../../plugins/auth.js";
import { importProducts } from "./import.service.js";
import { ImportJobs } from "./import-jobs.js";

const schemaBase = { tags: ["products"], security: [{ session: [] }] };
const config = { permission: "canManageProducts" } as const;

/**
 * A file larger than one call, in parts: POST creates a staged import, PUT stages each part,
 * POST .../commit imports every staged row in one transaction (answering 202 at once), and GET
 * tells how it went. Every call answers within seconds, whatever the file's size.
 */
export async function importJobRoutes(app: ZodApp): Promise<void> {
  const jobs = new ImportJobs();

  app.post(
    "/products/import/jobs",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "Start a staged import (a file sent in parts)",
        response: { 201: importJobSchema, ...errorAnswers(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(app, request);
      requirePermission(ctx, "canManageProducts");
      return reply.code(201).send(jobs.create(ctx.actor.id));
    },
  );

  app.put(
    "/products/import/jobs/:id/parts/:part",
    {
      config,
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      schema: {
        ...schemaBase,
        summary: "Stage one part of a staged import (parts numbered from 0; sending a part again replaces it)",
        params: importPartParamsSchema,
        body: importPartBodySchema,
        response: { 200: importJobSchema, ...errorAnswers(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      requirePermission(ctx, "canManageProducts");
      return jobs.addPart(request.params.id, ctx.actor.id, request.params.part, request.body.products as ImportRowInput[]);
    },
  );

  app.post(
    "/products/import/jobs/:id/commit",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "Import every staged row in one transaction; answers 202 at once, GET tells the outcome",
        params: importJobParamsSchema,
        response: { 202: importJobSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const ctx = serviceContext(app, request);
      requirePermission(ctx, "canManageProducts");
      const job = jobs.commit(request.params.id, ctx.actor.id, async (rows) => {
        try {
          return await importProducts(ctx, rows);
        } catch (err) {
          // The reason the user may read; anything else is logged and reported without details.
          if (err instanceof AppError && err.statusCode < 500) throw err;
          request.log.error({ err }, "staged import failed");
          throw new Error("The import could not be saved; nothing was imported");
        }
      });
      return reply.code(202).send(job);
    },
  );

  app.get(
    "/products/import/jobs/:id",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "A staged import: staging, committing, done (with its result) or failed (with the reason)",
        params: importJobParamsSchema,
        response: { 200: importJobSchema, ...errorAnswers(401, 403, 404) },
      },
    },
    async (request) => {
      const ctx = serviceContext(app, request);
      return jobs.get(request.params.id, ctx.actor.id);
    },
  );
}
