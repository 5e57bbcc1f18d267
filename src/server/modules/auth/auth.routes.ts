import {
  loginBodySchema,
  loginResponseSchema,
  meResponseSchema,
  socketTokenResponseSchema,
  verifyPermissionsResponseSchema,
} from "../../../contract/auth.js";
import { successSchema } from "../../../contract/errors.js";
import { ANONYMOUS_BODY_LIMIT_BYTES } from "../../body-limits.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext, sessionOf } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from "../sessions/session-cookie.js";
import { timingDummyHash } from "../users/passwords.js";
import { currentPermissions, currentUser, login } from "./auth.service.js";
import { loginThrottle } from "./login-throttle.js";

const tags = ["auth"];
const security = [{ session: [] }];

/** Sign-in, sign-out, the current user, permissions and socket tokens. */
export async function authRoutes(app: ZodApp): Promise<void> {
  // Computed once up front, so the first unknown-user sign-in costs no more than any other.
  await timingDummyHash();
  const attemptsOf = await loginThrottle(app);

  app.post(
    "/auth/login",
    {
      config: { public: true },
      bodyLimit: ANONYMOUS_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: "Sign in: sets the HttpOnly session cookie",
        description:
          "Failed sign-ins are limited per address (across all usernames) and per username; a username locked by " +
          "failures elsewhere still lets in a correct password from an address with no failures.",
        body: loginBodySchema,
        response: { 200: loginResponseSchema, ...errorAnswers(400, 401, 403, 413, 429, 503) },
      },
    },
    async (request, reply) => {
      const { user, token } = await login(
        { db: app.db, sessions: app.sessions, beginAttempt: attemptsOf(request) },
        request.body,
        sessionTokenOf(request),
      );
      setSessionCookie(reply, app.config, token, app.sessions.ttlMs);
      return { success: true as const, user };
    },
  );

  app.post(
    "/auth/logout",
    {
      config: { public: true },
      bodyLimit: ANONYMOUS_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: "Sign out: ends the session (closing its live connections) and clears the cookie",
        response: { 200: successSchema, ...errorAnswers(413, 503) },
      },
    },
    async (request, reply) => {
      await app.sessions.end(sessionTokenOf(request));
      clearSessionCookie(reply, app.config);
      return { success: true as const };
    },
  );

  app.get(
    "/auth/me",
    { schema: { tags, security, summary: "The signed-in user", response: { 200: meResponseSchema, ...errorAnswers(401, 503) } } },
    async (request) => ({ user: await currentUser(serviceContext(app, request)) }),
  );

  app.get(
    "/auth/verify-permissions",
    {
      schema: {
        tags,
        security,
        summary: "What the signed-in user may do",
        response: { 200: verifyPermissionsResponseSchema, ...errorAnswers(401, 503) },
      },
    },
    async (request) => currentPermissions(serviceContext(app, request)),
  );

  app.get(
    "/auth/socket-token",
    {
      schema: {
        tags,
        security,
        summary: "A single-use token (60 s) for the socket's authenticate event, bound to this session",
        response: { 200: socketTokenResponseSchema, ...errorAnswers(401, 503) },
      },
    },
    async (request) => ({ token: await app.sessions.issueSocketToken(sessionOf(request).id) }),
  );
}
