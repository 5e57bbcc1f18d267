import { z } from "zod";
import { canTouchRole, type Role } from "../../../contract/permissions";
import { MESSAGES, PASSWORD_MIN } from "../../../contract/rules";
import { type CreateUserBody, createUserBodySchema, roleSchema } from "../../../contract/users";

export const CREATE_USER_FAILED = "Failed to create user";
export const RESET_PASSWORD_FAILED = "Failed to reset password";
export const STATUS_UPDATE_FAILED = "Failed to update user status";
export const OWN_ACCOUNT_MESSAGE = MESSAGES.ownAccountClient;

/** Roles a creator may give, in the order the select lists them: streamer first (the default). */
export function creatableRoles(actor: Role): Role[] {
  const order: Role[] = ["streamer", "inventory", "manager", "super_admin"];
  return order.filter((role) => canTouchRole(actor, role));
}

export interface CreateUserFormValues {
  username: string;
  password: string;
  confirmPassword: string;
  role: Role;
}

export const EMPTY_CREATE_USER_FORM: CreateUserFormValues = { username: "", password: "", confirmPassword: "", role: "streamer" };

/**
 * The spec's checks in its order (one message at a time): both fields required,
 * passwords match, at least 6 characters; then the contract's own rules (username
 * pattern, role allowed for this creator), so the server seldom has to refuse.
 */
export function createUserFormSchema(actor: Role) {
  const roles = creatableRoles(actor);
  return z
    .object({ username: z.string(), password: z.string(), confirmPassword: z.string(), role: roleSchema })
    .transform((values, ctx): CreateUserBody => {
      const username = values.username.trim();
      const issue = (message: string, ...paths: Array<keyof CreateUserFormValues>) => {
        for (const path of paths) ctx.addIssue({ code: "custom", message, path: [path] });
        return z.NEVER;
      };
      if (!username || !values.password) {
        const missing: Array<keyof CreateUserFormValues> = [];
        if (!username) missing.push("username");
        if (!values.password) missing.push("password");
        return issue(MESSAGES.userRequired, ...missing);
      }
      if (values.password !== values.confirmPassword) return issue(MESSAGES.passwordsMismatch, "confirmPassword");
      if (values.password.length < PASSWORD_MIN) return issue(MESSAGES.passwordTooShort, "password");
      if (!roles.includes(values.role)) return issue("Choose a role from the list", "role");
      const parsed = createUserBodySchema.safeParse({ username, password: values.password, role: values.role });
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        const field = first?.path[0];
        return issue(first?.message ?? CREATE_USER_FAILED, field === "password" || field === "role" ? field : "username");
      }
      return parsed.data;
    });
}

export interface ResetPasswordFormValues {
  newPassword: string;
  confirmPassword: string;
}

export const EMPTY_RESET_PASSWORD_FORM: ResetPasswordFormValues = { newPassword: "", confirmPassword: "" };

/** New password required, must match its confirmation, at least 6 characters (in that order). */
export const resetPasswordFormSchema = z
  .object({ newPassword: z.string(), confirmPassword: z.string() })
  .transform((values, ctx): { newPassword: string } => {
    const issue = (message: string, path: keyof ResetPasswordFormValues) => {
      ctx.addIssue({ code: "custom", message, path: [path] });
      return z.NEVER;
    };
    if (!values.newPassword) return issue(MESSAGES.newPasswordRequired, "newPassword");
    if (values.newPassword !== values.confirmPassword) return issue(MESSAGES.passwordsMismatch, "confirmPassword");
    if (values.newPassword.length < PASSWORD_MIN) return issue(MESSAGES.passwordTooShort, "newPassword");
    return { newPassword: values.newPassword };
  });

/** The one message to show for a form's errors (they all carry the same text). */
export function firstErrorMessage(errors: Partial<Record<string, { message?: string } | undefined>>, order: string[]): string | null {
  for (const key of order) {
    const message = errors[key]?.message;
    if (message) return message;
  }
  return null;
}

/** What the Disable/Enable button asks for: the inverse state, never for one's own account. */
export function statusChange(
  viewerId: number,
  target: { id: number; is_active: boolean },
): { ok: true; id: number; isActive: boolean } | { ok: false; message: string } {
  if (target.id === viewerId) return { ok: false, message: OWN_ACCOUNT_MESSAGE };
  return { ok: true, id: target.id, isActive: !target.is_active };
}
