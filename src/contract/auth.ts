import { z } from "zod";
import type { Permissions } from "./permissions.js";
import { userSchema } from "./users.js";

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, "Username is required").max(200),
  password: z.string().min(1, "Password is required").max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResponseSchema = z.object({ success: z.literal(true), user: userSchema });
export const meResponseSchema = z.object({ user: userSchema });
export const socketTokenResponseSchema = z.object({ token: z.string() });
export const verifyPermissionsResponseSchema = z.object({
  canManageProducts: z.boolean(),
  canManageUsers: z.boolean(),
  canViewAudit: z.boolean(),
  canUpdateQuantity: z.boolean(),
}) satisfies z.ZodType<Permissions>;
