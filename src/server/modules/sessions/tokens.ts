import { createHash, randomBytes } from "node:crypto";

/** A new opaque token (session cookie or socket token); only its hash is ever stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Longer values are not tokens of ours: refused without a database query. */
export const TOKEN_MAX_LENGTH = 200;
