import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { TOKEN_MESSAGES, type TokenScope } from "../../contract/token-rules.js";
import { tooManyRequests, unauthorized } from "../app-error.js";
import type { Actor, ServiceContext } from "../context.js";
import { sessionTokenOf, setSessionCookie } from "../modules/sessions/session-cookie.js";
import type { ResolvedSession } from "../modules/sessions/sessions.service.js";
import { PERMISSION_SCOPES, requireAccess, type ServerPermission } from "../permissions.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Anyone may call the route: no session is looked up (sign-in, sign-out, health). */
    public?: boolean;
    /** What the route needs besides a session; checked here, before any input is read. */
    permission?: ServerPermission;
    /**
     * The scope an API token needs for the route, when it is not the permission's
     * (server/permissions.ts PERMISSION_SCOPES); null: no token may call it. A route with neither
     * a permission nor a scope is for sessions only.
     */
    scope?: TokenScope | null;
  }
  interface FastifyRequest {
    /** The signed-in user, or an API token's actor (set on every route of the /api scope but the public ones). */
    actor: Actor | null;
    session: ResolvedSession | null;
  }
}

/** `Authorization: Bearer <secret>`: the secret, else undefined (other schemes are not ours). */
export function bearerSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** The window of the per-token rate limit. */
const TOKEN_RATE_WINDOW_MS = 60_000;

/**
 * The one auth layer, on the /api scope (docs/architecture.md, Conventions): every route requires a session except
 * the ones marked `config: { public: true }`, and a route's `config.permission` is checked here
 * (services check again). A missing or ended session is a 401, a missing permission a 403, both
 * before the body is read. Sessions are looked up only here and for sockets, never for static
 * files; API answers are never stored by browsers or proxies (a route may say otherwise).
 *
 * A request with `Authorization: Bearer` is an API token's (docs/decisions/0009): its cookies are
 * ignored, an unknown or revoked token, or one whose maker is disabled, is a 401, and the token
 * acts for its maker: the route's scope (`config.scope`, else its permission's) must be among the
 * token's and allowed by the maker's current role, and that role must have the route's permission,
 * else 403 (requireAccess, the rule services run again). Each token is rate limited
 * (API_TOKEN_RATE_LIMIT a minute, per server process).
 */
export const apiAuth = fp(async (api: FastifyInstance) => {
  // Cookies are parsed only where a session token is read (session-cookie.ts); the plugin is
  // here for setting and clearing the session cookie.
  await api.register(fastifyCookie, { hook: false });
  api.decorateRequest("actor", null);
  api.decorateRequest("session", null);
  // A disabled maker's tokens stop with the maker's sessions, in every process: Sessions.ended runs
  // in each (here after the commit, elsewhere on the adapter's `sessions_ended`).
  api.sessions.onEnded((ended) => {
    if (ended.userId !== undefined) api.apiTokens.makerChanged(ended.userId);
  });

  // @fastify/rate-limit with its in-memory store, in a scope of its own (the login throttle
  // registers it with the database store where the auth routes are).
  let limitToken: ((request: FastifyRequest) => Promise<{ isExceeded: boolean; ttlInSeconds: number }>) | undefined;
  await api.register(async (limits) => {
    await limits.register(fastifyRateLimit, { global: false });
    const limiter = limits.createRateLimit({
      max: api.config.API_TOKEN_RATE_LIMIT,
      timeWindow: TOKEN_RATE_WINDOW_MS,
      keyGenerator: (request) => `token:${request.actor?.token?.id}`,
    });
    limitToken = async (request) => {
      const result = await limiter(request);
      return { isExceeded: !result.isAllowed && result.isExceeded, ttlInSeconds: result.isAllowed ? 0 : result.ttlInSeconds };
    };
  });

  const admitToken = async (request: FastifyRequest, bearer: string) => {
    const { config } = request.routeOptions;
    const actor = await api.apiTokens.resolve(bearer);
    if (!actor) throw unauthorized(TOKEN_MESSAGES.invalid);
    request.actor = actor;
    const limit = await limitToken?.(request);
    if (limit?.isExceeded) throw tooManyRequests(TOKEN_MESSAGES.rateLimited, { "retry-after": String(limit.ttlInSeconds) });
    const scope = config.scope !== undefined ? config.scope : config.permission ? PERMISSION_SCOPES[config.permission] : null;
    requireAccess(actor, config.permission, scope);
  };
  const admitSession = (request: FastifyRequest, reply: FastifyReply, token: string, session: ResolvedSession | null) => {
    if (!session) throw unauthorized();
    // The cookie's own lifetime slides with the session.
    if (session.slid) setSessionCookie(reply, api.config, token, api.sessions.ttlMs);
    request.session = session;
    request.actor = session.actor;
    const { permission } = request.routeOptions.config;
    if (permission) requireAccess(session.actor, permission, null);
  };

  // Callback-style: a session found in the cache is admitted in the same turn, without the
  // promises an async hook costs every request (bench/hot-paths).
  api.addHook("onRequest", (request, reply, done) => {
    reply.header("cache-control", "no-store");
    if (request.routeOptions.config.public) return done();
    const bearer = bearerSecretOf(request);
    if (bearer !== undefined) {
      admitToken(request, bearer).then(() => done(), done);
      return;
    }
    const token = sessionTokenOf(request);
    if (token === undefined) return done(unauthorized());
    const cached = api.sessions.resolveCached(token);
    if (cached === undefined) {
      api.sessions
        .resolve(token)
        .then((session) => admitSession(request, reply, token, session))
        .then(() => done(), done);
      return;
    }
    try {
      admitSession(request, reply, token, cached);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
});

/** The signed-in request's session (401 otherwise, API tokens included). */
export function sessionOf(request: FastifyRequest): ResolvedSession {
  if (!request.session) throw unauthorized();
  return request.session;
}

/** The context a service call needs, for a signed-in request or an API token's (401 otherwise). */
export function serviceContext(app: FastifyInstance, request: FastifyRequest): ServiceContext {
  if (!request.actor) throw unauthorized();
  return { db: app.db, events: app.events, config: app.config, actor: request.actor, ip: request.ip };
}
