import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../app-error.js";

/**
 * How deeply a JSON body may nest arrays and objects. Every route's body is a few levels deep;
 * parsing is safe at any depth, but the work after it (JSON.stringify, validation, logging) is
 * recursive, and a body thousands of levels deep overflows the stack outside any request's care.
 */
export const MAX_JSON_DEPTH = 32;
export const JSON_TOO_DEEP_MESSAGE = `The body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

/**
 * True when JSON text opens more than `max` arrays or objects inside one another. A scan of the
 * text, not a parse (so nothing recursive runs on a hostile body): brackets inside strings,
 * escaped quotes included, do not count. Malformed text is left for the parser to refuse.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/**
 * The app's application/json parser: Fastify's own (prototype and constructor poisoning refused
 * with 400), after a body nested deeper than MAX_JSON_DEPTH is refused with 400. An empty body
 * counts as no body: the client sends `Content-Type: application/json` on every call, also on
 * body-less ones like POST /api/auth/logout; routes that need a body still answer 400. Registered
 * on the root instance, so every route has it (the import routes read their large bodies with a
 * parser of their own, import-body.ts, which applies the same depth rule).
 */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser("error", "error");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
      const text = typeof body === "string" ? body : body.toString("utf8");
      if (text.trim() === "") return done(null, undefined);
      if (jsonTooDeep(text)) return done(new AppError(400, JSON_TOO_DEEP_MESSAGE), undefined);
      return parseJson(request, text, done);
    });
  },
  { name: "json-body" },
);
