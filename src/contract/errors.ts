import { z } from "zod";

/** Every error response: `{error}`, with `details` for validation errors. */
export const errorBodySchema = z.object({
  error: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const successSchema = z.object({ success: z.literal(true) });
