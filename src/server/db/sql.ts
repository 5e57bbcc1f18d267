import { sql } from "drizzle-orm";

/** Rows of a raw statement, on either driver (PGlite and node-postgres both answer `{rows}`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A JSON document as one text parameter, cast on the server (avoids one parameter per value). */
export const jsonParam = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;

/** True when the error, or one of its causes (drizzle wraps the driver's), is PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === "object"; i++) {
    if ((e as { code?: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
