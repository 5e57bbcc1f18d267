import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { bearerSecretOf } from "./auth.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF defence on top of SameSite cookies: a mutating request whose Origin names another site
 * than the one it was sent to is refused. Requests without Origin (curl, server to server) pass.
 * The host is the Host header, or X-Forwarded-Host from a trusted proxy (TRUST_PROXY).
 * Requests with `Authorization: Bearer` pass: they carry no cookie authority (plugins/auth.ts
 * ignores their cookies), and a browser cannot send that header cross-site without CORS, which
 * this server does not allow.
 */
export const originCheck = fp(async (app: FastifyInstance) => {
  // Callback-style: an async hook costs every request a promise and its turns (bench/hot-paths).
  app.addHook("onRequest", (request, reply, done) => {
    if (!MUTATING.has(request.method) || bearerSecretOf(request) !== undefined || request.headers.origin === undefined) return done();
    const origin = request.headers.origin;
    let originHost: string | null = null;
    try {
      originHost = origin === "null" ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (!originHost || originHost !== request.host.toLowerCase()) {
      reply.code(403).send({ error: "Cross-site request refused" });
      return;
    }
    done();
  });
});
