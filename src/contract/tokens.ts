import { z } from "zod";
import { orderChannelSchema } from "./orders.js";
import { TOKEN_CHANNELS_MAX, TOKEN_MESSAGES, TOKEN_NAME_MAX, TOKEN_SCOPES, TOKEN_STATES } from "./token-rules.js";
import { roleSchema } from "./users.js";

export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

/** An API token as listed: never its secret. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The scopes it was given. */
  scopes: z.array(tokenScopeSchema),
  /** The secret's first characters (`blez_` and 6 more), to tell tokens apart. */
  prefix: z.string(),
  /** Username of the manager who created it. */
  created_by: z.string(),
  created_at: z.string(),
  /** Updated at most once a minute per server process. */
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** The only channels an `orders:write` token places, cancels and reads orders in; null: every channel. */
  channels: z.array(z.string()).nullable(),
  /** Its maker as they are now: a token acts for them and never beyond their power. */
  maker: z.object({ id: z.number().int(), username: z.string(), role: roleSchema, is_active: z.boolean() }),
  /** The scopes it can use now: those its maker's current role allows (none when revoked or the maker is disabled). */
  effective_scopes: z.array(tokenScopeSchema),
  /** `active`; `limited` (some scopes beyond its maker's role now); `maker_disabled`; `revoked`. */
  state: z.enum(TOKEN_STATES),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const createTokenBodySchema = z
  .object({
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
    /** Limits an `orders:write` token to these channels (left out: every channel). */
    channels: z
      .array(orderChannelSchema, { error: TOKEN_MESSAGES.channelsRequired })
      .min(1, TOKEN_MESSAGES.channelsRequired)
      .max(TOKEN_CHANNELS_MAX, TOKEN_MESSAGES.tooManyChannels)
      .transform((channels) => [...new Set(channels)])
      .optional(),
  })
  .refine((body) => body.channels === undefined || body.scopes.includes("orders:write"), {
    message: TOKEN_MESSAGES.channelsNeedOrders,
    path: ["channels"],
  });
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

/** POST /api/tokens: the token and its secret, shown this once (only a hash is stored). */
export const createdTokenSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
