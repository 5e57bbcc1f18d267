import { sql } from "drizzle-orm";

/** Rows of a raw statement, on either driver (PGlite and node-postgres both answer `{rows}`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A JSON document as one text parameter, cast on the server (avoids one parameter per value). */
export const jsonParam = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;

/**
 * A JSON document as one text parameter, cast to `json`: for a document a statement reads once
 * (`json_to_recordset`, `json_array_elements_text`). `json` is parsed once, as it is read; `jsonb`
 * is first built into its binary form and then read, work thrown away after one read.
 */
export const jsonReadOnce = (value: unknown) => sql`${JSON.stringify(value)}::text::json`;

/** A database error and its causes, outermost first (drizzle wraps the driver's error in `cause`). */
export function errorChain(err: unknown): Array<{ code?: unknown; message?: unknown; constraint?: unknown }> {
  const chain = [];
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === "object"; i++) {
    chain.push(e as { code?: unknown; message?: unknown; constraint?: unknown });
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

export const PG_UNIQUE_VIOLATION = "23505";

/** True when the error, or one of its causes, is PostgreSQL's unique_violation. */
export function isUniqueViolation(err: unknown): boolean {
  return errorChain(err).some((e) => e.code === PG_UNIQUE_VIOLATION);
}
