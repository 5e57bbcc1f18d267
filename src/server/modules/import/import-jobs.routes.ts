import { importJobParamsSchema, importJobSchema, importPartBodySchema, importPartParamsSchema } from "../../../contract/import.js";
import { IMPORT_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import type { ImportBody } from "./import-body.js";
import { addImportPart, commitImport, createImport, getImport } from "./import-jobs.js";

const schemaBase = { tags: ["products"], security: SESSION_OR_TOKEN };
const config = { permission: "canManageProducts" } as const;

/**
 * A file larger than one call, in parts: POST creates a staged import, PUT stages each part,
 * POST .../commit starts writing every staged row (answering 202 at once), and GET tells how it
 * went. The parts live in the database: any server process takes any call.
 */
export async function importJobRoutes(app: ZodApp): Promise<void> {
  const deps = () => ({ database: app.database, runner: app.importRunner });

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
    async (request, reply) => reply.code(201).send(await createImport(serviceContext(app, request))),
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
    async (request) =>
      addImportPart(serviceContext(app, request), deps(), request.params.id, request.params.part, request.body as unknown as ImportBody),
  );

  app.post(
    "/products/import/jobs/:id/commit",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "Write every staged row as a durable job in short transactions; answers 202 at once, GET tells the outcome",
        params: importJobParamsSchema,
        response: { 202: importJobSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await commitImport(serviceContext(app, request), deps(), request.params.id)),
  );

  app.get(
    "/products/import/jobs/:id",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "A staged import: staging, committing (processed of received rows), done (with its result) or failed (with the reason)",
        params: importJobParamsSchema,
        response: { 200: importJobSchema, ...errorAnswers(401, 403, 404) },
      },
    },
    async (request) => getImport(serviceContext(app, request), request.params.id),
  );
}
