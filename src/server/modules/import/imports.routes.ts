import { z } from "zod";
import { importJobParamsSchema } from "../../../contract/import.js";
import { importSummarySchema, importsQuerySchema, importUndoResultSchema } from "../../../contract/imports.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { listImports } from "./import-jobs.js";
import { undoImport } from "./import-undo.js";

const schemaBase = { tags: ["imports"], security: SESSION_OR_TOKEN };
const config = { permission: "canManageProducts" } as const;

/** GET /api/imports and POST /api/imports/{id}/undo (docs/decisions/0001-imports-as-durable-jobs.md). */
export async function importsRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/imports",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "Imports, newest first: who, when, status and counts",
        querystring: importsQuerySchema,
        response: { 200: z.array(importSummarySchema), ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => listImports(serviceContext(app, request), request.query.limit, request.query.offset),
  );

  app.post(
    "/imports/:id/undo",
    {
      config,
      schema: {
        ...schemaBase,
        summary: "Revert an import",
        description:
          "Each field the import changed goes back to its value before the import where no one changed it since; each " +
          "product it created and no one touched since is disabled. Every revert is audited; the answer lists what was " +
          "left as it is and why. 409 while the import is still running or once it was undone.",
        params: importJobParamsSchema,
        response: { 200: importUndoResultSchema, ...errorAnswers(401, 403, 404, 409) },
      },
    },
    async (request) => undoImport(serviceContext(app, request), { database: app.database, runner: app.importRunner }, request.params.id),
  );
}
