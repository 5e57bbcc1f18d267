import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import { successSchema } from "../../../contract/errors.js";
import { createUserBodySchema, resetPasswordBodySchema, userSchema, userStatusBodySchema } from "../../../contract/users.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { createUser, listUsers, resetPassword, setUserStatus } from "./users.service.js";

const tags = ["users"];
const security = [{ session: [] }];
const config = { permission: "canManageUsers" } as const;

/** User accounts: list, create, enable/disable, reset password. */
export async function usersRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/auth/users",
    {
      config,
      schema: {
        tags,
        security,
        summary: "All users (canManageUsers)",
        response: { 200: z.array(userSchema), ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => listUsers(serviceContext(app, request)),
  );

  app.post(
    "/auth/users",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Create a user (only a super_admin creates a super_admin)",
        body: createUserBodySchema,
        response: { 201: userSchema, ...errorAnswers(400, 401, 403, 409, 413, 503) },
      },
    },
    async (request, reply) => {
      const user = await createUser(serviceContext(app, request), request.body);
      return reply.code(201).send(user);
    },
  );

  app.put(
    "/auth/users/:id/status",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Enable or disable a user (disabling ends their sessions and live connections)",
        params: idParamsSchema,
        body: userStatusBodySchema,
        response: { 200: userSchema, ...errorAnswers(400, 401, 403, 404, 413, 503) },
      },
    },
    async (request) => setUserStatus(serviceContext(app, request), request.params.id, request.body.is_active),
  );

  app.put(
    "/auth/users/:id/password",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Set a user's password (ends their sessions and live connections)",
        params: idParamsSchema,
        body: resetPasswordBodySchema,
        response: { 200: successSchema, ...errorAnswers(400, 401, 403, 404, 413, 503) },
      },
    },
    async (request) => {
      await resetPassword(serviceContext(app, request), request.params.id, request.body.newPassword);
      return { success: true as const };
    },
  );
}
