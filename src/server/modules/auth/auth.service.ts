import type { LoginBody } from "../../../contract/auth.js";
import { type Permissions, permissionsFor } from "../../../contract/permissions.js";
import { MESSAGES } from "../../../contract/rules.js";
import type { User } from "../../../contract/users.js";
import { AppError, tooManyRequests, unauthorized } from "../../app-error.js";
import type { Config } from "../../config.js";
import type { ServiceContext } from "../../context.js";
import type { Db } from "../../db/client.js";
import { issueSocketToken } from "../realtime/socket-tokens.repo.js";
import { findUserById, findUserByUsername, toUser } from "../users/users.repo.js";
import { clearFailures, countRecentFailures, deleteAttempt, deleteOldFailures, recordAttempt } from "./login-failures.repo.js";
import { timingDummyHash, verifyPassword } from "./passwords.js";
import { deleteExpiredSessions, deleteSession, insertSession } from "./sessions.repo.js";

/** What sign-in needs: it runs before there is an actor. */
export interface LoginContext {
  db: Db;
  config: Config;
  /** Client address: failures are counted per address and username. */
  ip: string;
}

export const TOO_MANY_ATTEMPTS = "Too many failed login attempts. Please try again later.";
/** Expired sessions and old login failures are deleted on roughly one sign-in in this many. */
const CLEANUP_ONE_IN = 50;

export const sessionTtlMs = (config: Config) => config.SESSION_TTL_HOURS * 3_600_000;
const windowMs = (config: Config) => config.LOGIN_WINDOW_MINUTES * 60_000;

/**
 * Checks the password and opens a session. Every attempt is first recorded as a failure for
 * (address, lower(username)), then counted, so concurrent guesses cannot slip past the limit;
 * a success forgets the pair's failures, so successful sign-ins are never limited.
 */
export async function login(ctx: LoginContext, input: LoginBody, previousToken?: string): Promise<{ user: User; token: string }> {
  const key = input.username.trim().toLowerCase();
  const attempt = await recordAttempt(ctx.db, ctx.ip, key);
  if ((await countRecentFailures(ctx.db, ctx.ip, key, windowMs(ctx.config))) > ctx.config.LOGIN_MAX_FAILURES) {
    await deleteAttempt(ctx.db, attempt);
    throw tooManyRequests(TOO_MANY_ATTEMPTS);
  }
  const user = await findUserByUsername(ctx.db, key);
  // An unknown user costs the same password check as a known one: the timing tells nothing.
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), input.password);
  if (!user || !passwordOk) throw new AppError(401, MESSAGES.invalidCredentials, { success: false });
  if (!user.isActive) {
    await deleteAttempt(ctx.db, attempt);
    throw new AppError(403, MESSAGES.accountDisabled, { success: false });
  }
  await clearFailures(ctx.db, ctx.ip, key);
  if (previousToken) await deleteSession(ctx.db, previousToken);
  const token = await insertSession(ctx.db, user.id, sessionTtlMs(ctx.config));
  if (Math.random() * CLEANUP_ONE_IN < 1) {
    await deleteExpiredSessions(ctx.db);
    await deleteOldFailures(ctx.db, windowMs(ctx.config));
  }
  return { user: toUser(user), token };
}

/** Ends the session the token names, if any. */
export async function logout(db: Db, token: string | undefined): Promise<void> {
  if (token && token.length <= 200) await deleteSession(db, token);
}

export async function currentUser(ctx: ServiceContext): Promise<User> {
  const row = await findUserById(ctx.db, ctx.actor.id);
  if (!row?.isActive) throw unauthorized();
  return toUser(row);
}

export function currentPermissions(ctx: ServiceContext): Permissions {
  return permissionsFor(ctx.actor.role);
}

/** A single-use token (60 s) the client trades for an authenticated socket. */
export async function socketToken(ctx: ServiceContext): Promise<{ token: string }> {
  return { token: await issueSocketToken(ctx.db, ctx.actor.id) };
}
