import { z } from "zod";
import { ROLES } from "./permissions.js";
import { MESSAGES, PASSWORD_MIN, USERNAME_PATTERN } from "./rules.js";

export const roleSchema = z.enum(ROLES);

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: roleSchema,
  is_active: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const passwordSchema = z.string().min(PASSWORD_MIN, MESSAGES.passwordTooShort).max(1024);

export const createUserBodySchema = z.object({
  username: z.string().trim().regex(USERNAME_PATTERN, "Username must be 3-50 letters, digits, '.', '_' or '-'"),
  password: passwordSchema,
  role: roleSchema.default("streamer"),
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const userStatusBodySchema = z.object({ is_active: z.boolean() });
export const resetPasswordBodySchema = z.object({ newPassword: passwordSchema });
