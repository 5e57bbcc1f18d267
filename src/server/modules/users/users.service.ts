import type { z } from "zod";
import { canTouchRole } from "../../../contract/permissions.js";
import { MESSAGES } from "../../../contract/rules.js";
import type { createUserBodySchema, User } from "../../../contract/users.js";
import { badRequest, conflict, forbidden, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { deleteUserSessions } from "../sessions/sessions.repo.js";
import { hashPassword } from "./passwords.js";
import { toUser } from "./users.presenter.js";
import { findUserById, insertUserIfFree, listUsers as listUserRows, lockUserById, setUserActive, setUserPassword } from "./users.repo.js";

export type CreateUserInput = z.output<typeof createUserBodySchema>;

const USER_NOT_FOUND = "User not found";
const PROTECTED = "This account is protected and can only be modified by other super administrators.";

export async function listUsers(ctx: ServiceContext): Promise<User[]> {
  requirePermission(ctx, "canManageUsers");
  return (await listUserRows(ctx.db)).map(toUser);
}

/** 403 for a super_admin unless the caller is one; 409 when the name is taken in any letter case. */
export async function createUser(ctx: ServiceContext, input: CreateUserInput): Promise<User> {
  requirePermission(ctx, "canManageUsers");
  if (!canTouchRole(ctx.actor.role, input.role)) throw forbidden("Only a super administrator can create a super administrator");
  const passwordHash = await hashPassword(input.password);
  const row = await insertUserIfFree(ctx.db, { username: input.username, passwordHash, role: input.role });
  if (!row) throw conflict(MESSAGES.usernameTaken);
  return toUser(row);
}

/** Disabling ends the user's sessions in the same transaction; after the commit the sessions module closes their sockets. */
export async function setUserStatus(ctx: ServiceContext, id: number, isActive: boolean): Promise<User> {
  requirePermission(ctx, "canManageUsers");
  if (id === ctx.actor.id && !isActive) throw badRequest(MESSAGES.ownAccount);
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const target = await lockUserById(tx, id);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (!canTouchRole(ctx.actor.role, target.role)) throw forbidden(PROTECTED);
    const row = await setUserActive(tx, id, isActive);
    if (!row) throw notFound(USER_NOT_FOUND);
    if (!isActive) {
      await deleteUserSessions(tx, id);
      afterCommit(() => ctx.events.emit("user_revoked", { userId: id, reason: "account_disabled" }));
    }
    return toUser(row);
  });
}

/** A new password ends every session of that user (in the same transaction) and their sockets. */
export async function resetPassword(ctx: ServiceContext, id: number, newPassword: string): Promise<void> {
  requirePermission(ctx, "canManageUsers");
  const target = await findUserById(ctx.db, id);
  if (!target) throw notFound(USER_NOT_FOUND);
  if (!canTouchRole(ctx.actor.role, target.role)) throw forbidden(PROTECTED);
  // Hash outside the transaction: it takes a while and needs no lock.
  const passwordHash = await hashPassword(newPassword);
  await withTransaction(ctx.db, async (tx, afterCommit) => {
    const locked = await lockUserById(tx, id);
    if (!locked) throw notFound(USER_NOT_FOUND);
    if (!canTouchRole(ctx.actor.role, locked.role)) throw forbidden(PROTECTED);
    await setUserPassword(tx, id, passwordHash);
    await deleteUserSessions(tx, id);
    afterCommit(() => ctx.events.emit("user_revoked", { userId: id, reason: "password_reset" }));
  });
}
