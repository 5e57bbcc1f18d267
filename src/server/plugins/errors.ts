import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { MESSAGES } from "../../contract/rules.js";
import { AppError } from "../app-error.js";
import { errorChain, PG_UNIQUE_VIOLATION } from "../db/sql.js";

/** Connection-level failures: the database is down or restarting. */
const DB_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);
/** Driver errors without a code that mean the same: the pool or the embedded database is gone. */
const DB_DOWN_MESSAGES = [
  /PGlite is closed/i,
  /Cannot use a pool after calling end on the pool/i,
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client was closed and is not queryable/i,
  /Client has encountered a connection error and is not queryable/i,
  // The database is closed to connections (ALTER DATABASE ... ALLOW_CONNECTIONS false, maintenance).
  /is not currently accepting connections/i,
];
/** SQLSTATE class 22 (data exception: out of range, invalid text representation, ...) is bad input. */
const PG_DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

export const DB_UNAVAILABLE = "Database unavailable. Please try again shortly.";

/** True when the error (or one of its causes) says the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return errorChain(err).some(
    (e) =>
      (typeof e.code === "string" && DB_DOWN_CODES.has(e.code)) ||
      (typeof e.message === "string" && DB_DOWN_MESSAGES.some((re) => re.test(e.message as string))),
  );
}

/**
 * zod's default type messages ("Invalid input: expected string, received undefined") in plain
 * words naming the field; the contract's own messages are kept as they are.
 */
function readableMessage(v: { keyword: string; message?: string; params: Record<string, unknown> }, path: string): string {
  const message = v.message ?? "Invalid value";
  if (v.keyword !== "invalid_type" || !message.startsWith("Invalid input")) return message;
  const field = path.split(".").pop() || "Request body";
  if (/received undefined$/.test(message)) return `${field} is required`;
  const expected = typeof v.params.expected === "string" ? v.params.expected : "valid value";
  const article = /^[aeiou]/.test(expected) ? "an" : "a";
  return `${field} must be ${article} ${expected}`;
}

/**
 * One error handler: `{error}` bodies with the contract's status codes; anything unknown is a
 * logged 500. Bad JSON bodies (json-body.ts) end up here as 400s.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.statusCode).send({ error: err.message, ...err.extra });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => {
        const path = v.instancePath.replace(/^\//, "").replaceAll("/", ".");
        return { path: path || err.validationContext || "", message: readableMessage(v, path) };
      });
      return reply.code(400).send({ error: details[0]?.message ?? "Invalid request", details });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, "response did not match its schema");
      return reply.code(500).send({ error: "Internal server error" });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.error({ err }, "database unavailable");
      return reply.code(503).send({ error: DB_UNAVAILABLE });
    }
    for (const e of errorChain(err)) {
      if (e.code === PG_UNIQUE_VIOLATION) {
        const what = String(e.constraint ?? "").includes("username") ? MESSAGES.usernameTaken : MESSAGES.barcodeExists;
        return reply.code(409).send({ error: what });
      }
      if (typeof e.code === "string" && PG_DATA_EXCEPTION.test(e.code)) {
        request.log.warn({ err }, "input the database refused");
        return reply.code(400).send({ error: "Invalid input" });
      }
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: status === 413 ? "Request body is too large" : err.message });
    }
    request.log.error({ err }, "unhandled error");
    return reply.code(500).send({ error: "Internal server error" });
  });
}
