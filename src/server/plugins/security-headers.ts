import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

/**
 * helmet's headers (CSP and the rest) for this configuration, computed once: they do not vary per
 * request (no nonces), and helmet would otherwise rebuild the CSP string on every request.
 */
export function securityHeaders(opts: { https: boolean }): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // ZXing's WebAssembly decoder needs wasm compilation; nothing else runs but our own scripts.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        // 'self' covers this host's ws: and wss: (CSP Level 3), and no other host.
        connectSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: opts.https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS only when the server is told it runs behind HTTPS.
    strictTransportSecurity: opts.https,
  });
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** Sends the security headers with every answer (API, static files, errors and 404s alike). */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const headers = securityHeaders({ https: app.config.COOKIE_SECURE });
  // Callback-style: an async hook costs every request a promise and its turns (bench/hot-paths).
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});
