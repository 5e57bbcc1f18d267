import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";
import { API_DOCS_PREFIX, isApiPath } from "../server-addresses.js";

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

/**
 * The headers of an API answer: data, never a document (OWASP's REST guidance). No script, style or
 * frame of its own, no sniffing, no framing and no loading by another site; HSTS as the documents
 * have it. About 500 bytes fewer than the documents' set on every answer, where a scan's answer
 * is about 400 bytes of JSON (bench/hot-paths/README.md).
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const hsts = documentHeaders["strict-transport-security"];
  return {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "cross-origin-resource-policy": "same-origin",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    ...(hsts ? { "strict-transport-security": hsts } : {}),
  };
}

/** An answer of the API (JSON, CSV, photos), not the API's documentation pages. */
const isApiAnswer = (url: string) => isApiPath(url) && !url.startsWith(API_DOCS_PREFIX);

/**
 * Sends security headers with every answer (API, static files, errors and 404s alike): helmet's
 * set for the app's documents and files, the API's own set (above) for API answers.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const documentHeaders = securityHeaders({ https: app.config.COOKIE_SECURE });
  const apiHeaders = apiSecurityHeaders(documentHeaders);
  // Callback-style: an async hook costs every request a promise and its turns (bench/hot-paths).
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? apiHeaders : documentHeaders);
    done();
  });
});
