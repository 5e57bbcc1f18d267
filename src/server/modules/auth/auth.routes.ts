import type { FastifyRequest } from "fastify";
import {
  loginBodySchema,
  loginResponseSchema,
  meResponseSchema,
  socketTokenResponseSchema,
  verifyPermissionsResponseSchema,
} from "../../../contract/auth.js";
import { successSchema } from "../../../contract/errors.js";
import type { ZodApp } from "../../app.js";
import { clearSessionCookie, requireActor, SESSION_COOKIE, serviceContext, setSessionCookie } from "../../plugins/auth.js";
import { currentPermissions, currentUser, login, logout, socketToken } from "./auth.service.js";
import { timingDummyHash } from "./passwords.js";

const tags = ["auth"];
const security = [{ session: [] }];
const signedInOnly = async (request: FastifyRequest) => {
  requireActor(request);
};

/** Sign-in, sign-out, the current user, permissions and socket tokens (API contract, Auth and users). */
export async function authRoutes(app: ZodApp): Promise<void> {
  // Computed once up front, so the first unknown-user sign-in costs no more than any other.
  await timingDummyHash();
  app.post(
    "/auth/login",
    {
      schema: {
        tags,
        summary: "Sign in: sets the HttpOnly session cookie",
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, token } = await login(
        { db: app.db, config: app.config, ip: request.ip },
        request.body,
        request.cookies[SESSION_COOKIE],
      );
      setSessionCookie(app, reply, token);
      return { success: true as const, user };
    },
  );

  app.post(
    "/auth/logout",
    { schema: { tags, summary: "Sign out: ends the session and clears the cookie", response: { 200: successSchema } } },
    async (request, reply) => {
      await logout(app.db, request.cookies[SESSION_COOKIE]);
      clearSessionCookie(app, reply);
      return { success: true as const };
    },
  );

  app.get(
    "/auth/me",
    { onRequest: signedInOnly, schema: { tags, security, summary: "The signed-in user", response: { 200: meResponseSchema } } },
    async (request) => ({ user: await currentUser(serviceContext(app, request)) }),
  );

  app.get(
    "/auth/verify-permissions",
    {
      onRequest: signedInOnly,
      schema: { tags, security, summary: "What the signed-in user may do", response: { 200: verifyPermissionsResponseSchema } },
    },
    async (request) => currentPermissions(serviceContext(app, request)),
  );

  app.get(
    "/auth/socket-token",
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "A single-use token (60 s) for the socket's authenticate event",
        response: { 200: socketTokenResponseSchema },
      },
    },
    async (request) => socketToken(serviceContext(app, request)),
  );
}
