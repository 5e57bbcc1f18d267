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
          "(create, edit, status, import, photos), `orders:write` (place, list and cancel orders), `audit:read` (audit " +
          "trails), `reports:read` (reports). `channels` (with `orders:write` only) limits the token to orders of those " +
          "channels: it places, cancels and reads no others (403). Send the secret as `Authorization: Bearer <secret>`. " +
          "A token acts for its maker: it answers 401 while the maker is disabled, and a scope works only while the " +
          "maker's role allows it (`orders:write`: managers; `products:write`: inventory and up; `audit:read` and " +
          "`reports:read`: inventory and up; the others: everyone), else 403. Names are unique and never reused: the " +
          "audit names a token's changes `token:<name>`. 409 when the name was used before.",
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
        description:
          "Each with its maker as they are now, `effective_scopes` (the scopes its maker's current role allows; none " +
          "when revoked or the maker is disabled) and `state`: `active`, `limited` (some scopes beyond its maker's role), " +
          "`maker_disabled` or `revoked`.",
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
