import type { z } from "zod";
import { errorBodySchema } from "../contract/errors.js";

/** OpenAPI `security` of routes a signed-in session may call, and only a session. */
export const SESSION_ONLY: Array<Record<string, string[]>> = [{ session: [] }];
/** OpenAPI `security` of routes an API token (with the route's scope) may call too. */
export const SESSION_OR_TOKEN: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];

/** The error statuses every route may answer, as the OpenAPI document describes them. */
const ERROR_DESCRIPTIONS = {
  400: "Malformed or invalid input: `{error}`, with `details: [{path, message}]` for validation errors",
  401: "Not signed in, the session ended, or an unknown or revoked API token",
  403: "Signed in but not allowed, an API token without the route's scope (or a cross-site request)",
  404: "Unknown id or barcode",
  409: "Conflict with the current state",
  413: "Request body too large",
  422: "The Idempotency-Key was already used for a different request; nothing changed",
  429: "Too many attempts (or requests with one API token); see Retry-After",
  503: "Database unavailable; try again shortly",
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/**
 * The `{error}` body, letting through the extra fields some answers carry (`success: false` on
 * sign-in, the current product on a version conflict): answers are serialised through these schemas.
 */
const errorAnswer = errorBodySchema.loose();

/** Response schemas for the error answers a route gives: `response: { 200: x, ...errorAnswers(401, 503) }`. */
export function errorAnswers<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof errorAnswer> {
  const answers = {} as Record<S, typeof errorAnswer>;
  for (const status of statuses) answers[status] = errorAnswer.describe(ERROR_DESCRIPTIONS[status]);
  return answers;
}

/** An error answer with its own schema (a conflict's extra fields), described as the status is. */
export function describedError<T extends z.ZodType>(status: ErrorStatus, schema: T): T {
  return schema.describe(ERROR_DESCRIPTIONS[status]);
}
