import { z } from "zod";
import type { AuthErrorReason } from "../../../contract/events.js";
import type { Actor } from "../../context.js";
import type { Db } from "../../db/client.js";
import { consumeSocketToken } from "./socket-tokens.repo.js";

export const AUTH_ERROR_MESSAGES: Record<AuthErrorReason, string> = {
  invalid_token: "Invalid or already used authentication token",
  expired_token: "Authentication token expired",
  account_disabled: "Your account has been disabled",
};

/** `authenticate` attempts one socket may make before it is dropped (each one costs a database round trip). */
export const MAX_AUTH_ATTEMPTS = 5;

const authenticatePayload = z.object({ token: z.string().min(1).max(200) });

/** Trades an `authenticate` payload (anything a client sent) for the token's user, or the reason it is refused. */
export async function authenticateSocket(db: Db, payload: unknown): Promise<{ actor: Actor } | { reason: AuthErrorReason }> {
  const parsed = authenticatePayload.safeParse(payload);
  if (!parsed.success) return { reason: "invalid_token" };
  return consumeSocketToken(db, parsed.data.token);
}
