import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF defence on top of SameSite cookies: a mutating request whose Origin names another
 * site than the one it was sent to is refused. Requests without Origin (curl, server to server) pass.
 */
export const originCheck = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", async (request, reply) => {
    if (!MUTATING.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    let originHost: string | null = null;
    try {
      originHost = origin === "null" ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    const host = request.headers["x-forwarded-host"] && app.config.TRUST_PROXY ? request.headers["x-forwarded-host"] : request.headers.host;
    if (!originHost || originHost !== host) {
      return reply.code(403).send({ error: "Cross-site request refused" });
    }
  });
});
