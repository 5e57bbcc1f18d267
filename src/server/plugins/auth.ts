import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Permission } from "../../contract/permissions.js";
import { unauthorized } from "../app-error.js";
import type { Actor, ServiceContext } from "../context.js";
import { sessionTokenOf, setSessionCookie } from "../modules/sessions/session-cookie.js";
import type { ResolvedSession } from "../modules/sessions/sessions.service.js";
import { requirePermission } from "../permissions.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Anyone may call the route: no session is looked up (sign-in, sign-out, health). */
    public?: boolean;
    /** What the route needs besides a session; checked here, before any input is read. */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The signed-in user (set on every route of the /api scope but the public ones). */
    actor: Actor | null;
    session: ResolvedSession | null;
  }
}

/**
 * The one auth layer, on the /api scope (docs/architecture.md, Conventions): every route requires a session except
 * the ones marked `config: { public: true }`, and a route's `config.permission` is checked here
 * (services check again). A missing or ended session is a 401, a missing permission a 403, both
 * before the body is read. Sessions are looked up only here and for sockets, never for static
 * files; API answers are never stored by browsers or proxies (a route may say otherwise).
 */
export const apiAuth = fp(async (api: FastifyInstance) => {
  // Cookies are parsed only where a session token is read (session-cookie.ts); the plugin is
  // here for setting and clearing the session cookie.
  await api.register(fastifyCookie, { hook: false });
  api.decorateRequest("actor", null);
  api.decorateRequest("session", null);
  api.addHook("onRequest", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const { config } = request.routeOptions;
    if (config.public) return;
    const token = sessionTokenOf(request);
    const session = token ? await api.sessions.resolve(token) : null;
    if (!session) throw unauthorized();
    // The cookie's own lifetime slides with the session.
    if (session.slid) setSessionCookie(reply, api.config, token as string, api.sessions.ttlMs);
    request.session = session;
    request.actor = session.actor;
    if (config.permission) requirePermission(session, config.permission);
  });
});

/** The signed-in request's session (401 otherwise). */
export function sessionOf(request: FastifyRequest): ResolvedSession {
  if (!request.session) throw unauthorized();
  return request.session;
}

/** The context a service call needs, for a signed-in request (401 otherwise). */
export function serviceContext(app: FastifyInstance, request: FastifyRequest): ServiceContext {
  if (!request.actor) throw unauthorized();
  return { db: app.db, events: app.events, config: app.config, actor: request.actor, ip: request.ip };
}
