import { z } from "zod";

/** Schemas every part of the API uses, whatever it is about. */

/** The largest id a PostgreSQL `integer` column holds: larger ids cannot exist. */
export const ID_MAX = 2_147_483_647;

/**
 * A sum of money in whole cents over many products (stock x price or cost): past 2^53 cents it is
 * still a number JSON carries (a value a shop never reaches; the API must answer it, not fail).
 */
export const centsSumSchema = z.number().refine(Number.isInteger, "Whole cents");

/** `/{id}` of a user, a product or a show: a positive integer a row can have. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(ID_MAX) });
