import type { LoginBody } from "../../../contract/auth.js";
import { type Permissions, permissionsFor } from "../../../contract/permissions.js";
import { MESSAGES } from "../../../contract/rules.js";
import type { User } from "../../../contract/users.js";
import { AppError, unauthorized } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import type { Sessions } from "../sessions/sessions.service.js";
import { timingDummyHash, verifyPassword } from "../users/passwords.js";
import { toUser } from "../users/users.presenter.js";
import { findUserById, findUserByUsername } from "../users/users.repo.js";
import type { BeginLoginAttempt } from "./login-throttle.js";

/** What sign-in needs: it runs before there is an actor. */
export interface LoginContext {
  db: Db;
  sessions: Sessions;
  /** The throttle, bound to the request's address and username. */
  beginAttempt: BeginLoginAttempt;
}

/**
 * Checks the password and opens a session (ending the browser's previous one). The attempt is
 * throttled (login-throttle.ts) before any password is checked.
 */
export async function login(ctx: LoginContext, input: LoginBody, previousToken?: string): Promise<{ user: User; token: string }> {
  const attempt = await ctx.beginAttempt();
  const user = await findUserByUsername(ctx.db, input.username.trim());
  // An unknown user costs the same password check as a known one: the timing tells nothing.
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), input.password);
  if (!user || !passwordOk) throw new AppError(401, MESSAGES.invalidCredentials, { success: false });
  await attempt.notAFailure();
  if (!user.isActive) throw new AppError(403, MESSAGES.accountDisabled, { success: false });
  await ctx.sessions.end(previousToken);
  const token = await ctx.sessions.open(user.id);
  return { user: toUser(user), token };
}

export async function currentUser(ctx: ServiceContext): Promise<User> {
  const row = await findUserById(ctx.db, ctx.actor.id);
  if (!row?.isActive) throw unauthorized();
  return toUser(row);
}

export function currentPermissions(ctx: ServiceContext): Permissions {
  return permissionsFor(ctx.actor.role);
}
