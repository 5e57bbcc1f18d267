import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The first host of a header that proxies may send as a list ("a, b") or repeat. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(",")[0]?.trim();
  return first ? first : undefined;
}

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
    const forwarded = app.config.TRUST_PROXY ? firstValue(request.headers["x-forwarded-host"]) : undefined;
    const host = (forwarded ?? request.headers.host ?? "").toLowerCase();
    if (!originHost || originHost !== host) {
      return reply.code(403).send({ error: "Cross-site request refused" });
    }
  });
});
