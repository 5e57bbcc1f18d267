import { z } from "zod";
import { TOKEN_MESSAGES, TOKEN_NAME_MAX, TOKEN_SCOPES } from "./token-rules.js";

export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

/** An API token as listed: never its secret. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(tokenScopeSchema),
  /** The secret's first characters (`blez_` and 6 more), to tell tokens apart. */
  prefix: z.string(),
  /** Username of the manager who created it. */
  created_by: z.string(),
  created_at: z.string(),
  /** Updated at most once a minute per server process. */
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const createTokenBodySchema = z.object({
  name: z
    .string({ error: TOKEN_MESSAGES.nameRequired })
    .trim()
    .min(1, TOKEN_MESSAGES.nameRequired)
    .max(TOKEN_NAME_MAX, TOKEN_MESSAGES.nameTooLong)
    .regex(/^[^\p{Cc}]*$/u, "Token name must be printable text"),
  scopes: z
    .array(tokenScopeSchema, { error: TOKEN_MESSAGES.scopesRequired })
    .min(1, TOKEN_MESSAGES.scopesRequired)
    .transform((scopes) => TOKEN_SCOPES.filter((s) => scopes.includes(s))),
});
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

/** POST /api/tokens: the token and its secret, shown this once (only a hash is stored). */
export const createdTokenSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
