import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "../app-error.js";

const PG_UNIQUE_VIOLATION = "23505";
/** Connection-level failures: the database is down or restarting. */
const DB_DOWN_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

function causeChain(err: unknown): Array<{ code?: unknown; message?: unknown; constraint?: unknown }> {
  const chain = [];
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === "object"; i++) {
    chain.push(e as { code?: unknown; message?: unknown; constraint?: unknown });
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/** One error handler: `{error}` bodies with the contract's status codes; anything unknown is a logged 500. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).send({ error: err.message, ...err.extra });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, "").replaceAll("/", ".") || err.validationContext || "",
        message: v.message ?? "Invalid value",
      }));
      return reply.code(400).send({ error: details[0]?.message ?? "Invalid request", details });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, "response did not match its schema");
      return reply.code(500).send({ error: "Internal server error" });
    }
    for (const e of causeChain(err)) {
      if (e.code === PG_UNIQUE_VIOLATION) {
        const what = String(e.constraint ?? "").includes("username")
          ? "Username already exists"
          : "A product with this barcode already exists";
        return reply.code(409).send({ error: what });
      }
      if (typeof e.code === "string" && DB_DOWN_CODES.has(e.code)) {
        request.log.error({ err }, "database unavailable");
        return reply.code(503).send({ error: "Database unavailable. Please try again shortly." });
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
