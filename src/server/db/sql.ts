import { sql } from "drizzle-orm";

/** Rows of a raw statement, on either driver (PGlite and node-postgres both answer `{rows}`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A JSON document as one text parameter, cast on the server (avoids one parameter per value). */
export const jsonParam = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;
