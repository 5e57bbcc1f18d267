import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { unauthorized } from "../app-error.js";
import type { Actor, ServiceContext } from "../context.js";
import { findSessionUser, touchSession } from "../modules/auth/sessions.repo.js";

export const SESSION_COOKIE = "blez_session";
/** Write the sliding expiry at most this often per session, not on every request (sooner for tiny TTLs). */
const TOUCH_EVERY_MS = 60_000;

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
    sessionToken: string | null;
  }
}

export function sessionTtlMs(app: FastifyInstance): number {
  return app.config.SESSION_TTL_HOURS * 3_600_000;
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure behind HTTPS. */
export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: app.config.COOKIE_SECURE,
    maxAge: Math.floor(sessionTtlMs(app) / 1000),
  });
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: app.config.COOKIE_SECURE });
}

/** The signed-in user, or a 401. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** The context a service call needs, for a signed-in request (401 otherwise). */
export function serviceContext(app: FastifyInstance, request: FastifyRequest): ServiceContext {
  return { db: app.db, events: app.events, config: app.config, actor: requireActor(request), ip: request.ip };
}

/** Resolves the session cookie to `request.actor` on every request. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  await app.register(fastifyCookie);
  app.decorateRequest("actor", null);
  app.decorateRequest("sessionToken", null);
  app.addHook("onRequest", async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const found = await findSessionUser(app.db, token);
    if (!found) return;
    request.actor = { id: found.id, username: found.username, role: found.role };
    request.sessionToken = token;
    const ttl = sessionTtlMs(app);
    if (Date.now() - found.lastSeenAt.getTime() > Math.min(TOUCH_EVERY_MS, ttl / 4)) {
      await touchSession(app.db, found.tokenHash, ttl);
      // The cookie's own lifetime slides with the session.
      setSessionCookie(app, reply, token);
    }
  });
});
