import { z } from "zod";
import { auditQuerySchema, auditUserSchema, productAuditEntrySchema, quantityAuditEntrySchema } from "../../../contract/audit.js";
import { idParamsSchema } from "../../../contract/common.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { getAuditUsers, getProductAudit, getQuantityAudit } from "./audit.service.js";

const tags = ["audit"];
const security = SESSION_OR_TOKEN;
/** 401 and 403 come before input validation: a caller without access learns nothing about the filters. */
const config = { permission: "canViewAudit" } as const;

/** Audit trails: product and quantity entries with filters, and the user list for the filter. */
export async function auditRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/audit/products",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Product audit entries, newest first",
        querystring: auditQuerySchema,
        response: { 200: z.array(productAuditEntrySchema), ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => getProductAudit(serviceContext(app, request), request.query),
  );

  app.get(
    "/audit/product/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Product audit entries of one product, newest first",
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: z.array(productAuditEntrySchema), ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => getProductAudit(serviceContext(app, request), request.query, request.params.id),
  );

  app.get(
    "/audit/quantity",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Quantity audit entries, newest first",
        querystring: auditQuerySchema,
        response: { 200: z.array(quantityAuditEntrySchema), ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => getQuantityAudit(serviceContext(app, request), request.query),
  );

  app.get(
    "/audit/quantity/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Quantity audit entries of one product, newest first",
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: z.array(quantityAuditEntrySchema), ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => getQuantityAudit(serviceContext(app, request), request.query, request.params.id),
  );

  app.get(
    "/audit/users",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Accounts for the audit user filter",
        response: { 200: z.array(auditUserSchema), ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => getAuditUsers(serviceContext(app, request)),
  );
}
