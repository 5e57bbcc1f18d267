import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import { apiTokenSchema, createdTokenSchema, createTokenBodySchema } from "../../../contract/tokens.js";
import { errorAnswers, SESSION_ONLY } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { createToken, listTokens, revokeToken } from "./tokens.service.js";

const tags = ["tokens"];
/** Managers and super administrators, with a session: a token never manages tokens. */
const config = { permission: "canManageIntegrations" } as const;

/** API tokens for integrations: create (the secret answered once), list, revoke. */
export async function tokensRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/tokens",
    {
      config,
      schema: {
        tags,
        security: SESSION_ONLY,
        summary: "Create an API token: the secret is in this answer only",
        description:
          "Scopes: `products:read` (list, `since`, lookup, photos), `quantity:write` (stock changes), `products:write` " +
          "(create, edit, status, import, photos), `orders:write` (orders), `audit:read`. Send the secret as " +
          "`Authorization: Bearer <secret>`. Names are unique and never reused: the audit names a token's changes " +
          "`token:<name>`. 409 when the name was used before.",
        body: createTokenBodySchema,
        response: { 201: createdTokenSchema, ...errorAnswers(400, 401, 403, 409, 413, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createToken(serviceContext(app, request), request.body)),
  );

  app.get(
    "/tokens",
    {
      config,
      schema: {
        tags,
        security: SESSION_ONLY,
        summary: "Every API token, revoked ones too, newest first (never their secrets)",
        response: { 200: z.array(apiTokenSchema), ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => listTokens(serviceContext(app, request)),
  );

  app.delete(
    "/tokens/:id",
    {
      config,
      schema: {
        tags,
        security: SESSION_ONLY,
        summary: "Revoke an API token: it stops working at once, on every server process",
        params: idParamsSchema,
        response: { 204: z.null().describe("Revoked"), ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request, reply) => {
      await revokeToken(serviceContext(app, request), app.apiTokens, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
