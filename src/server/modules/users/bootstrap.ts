import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { PASSWORD_MIN, USERNAME_PATTERN } from "../../../contract/rules.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { hashPassword } from "./passwords.js";
import { anyUserExists, insertUserIfFree } from "./users.repo.js";

export interface FirstAdminResult {
  /** False when there were users already (or another process created the admin first). */
  created: boolean;
  username?: string;
  /** Only when the password was generated (ADMIN_PASSWORD unset). */
  generatedPassword?: string;
}

/** 24 random bytes as base64url: 32 characters, 192 bits. */
export function generatePassword(): string {
  return randomBytes(24).toString("base64url");
}

function credentialsBlock(username: string, password: string): string {
  const line = "=".repeat(64);
  return [
    "",
    line,
    "  FIRST ADMINISTRATOR CREATED (shown only this once)",
    `  username: ${username}`,
    `  password: ${password}`,
    "  Sign in and keep this password somewhere safe.",
    line,
    "",
    "",
  ].join("\n");
}

/**
 * The first super_admin: when the users table is empty, create ADMIN_USERNAME with
 * ADMIN_PASSWORD, or with a generated password printed once to stdout (never to the request
 * log). Safe when several processes start at once: the insert does nothing when the name
 * exists (lower(username) unique index), and only the process whose insert won prints.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
  log: Pick<FastifyBaseLogger, "info" | "warn">,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<FirstAdminResult> {
  if (await anyUserExists(db)) return { created: false };
  const username = config.ADMIN_USERNAME.trim();
  if (!USERNAME_PATTERN.test(username)) {
    log.warn({ username }, "ADMIN_USERNAME is not 3-50 letters, digits, '.', '_' or '-'; creating it anyway");
  }
  const given = config.ADMIN_PASSWORD;
  if (given !== undefined && given.length < PASSWORD_MIN) {
    log.warn(`ADMIN_PASSWORD is shorter than ${PASSWORD_MIN} characters; creating the account anyway`);
  }
  const password = given ?? generatePassword();
  const row = await insertUserIfFree(db, { username, passwordHash: await hashPassword(password), role: "super_admin" });
  if (!row) return { created: false };
  if (given === undefined) {
    print(credentialsBlock(username, password));
    log.info({ username }, "first super_admin created with a generated password (printed to stdout)");
    return { created: true, username, generatedPassword: password };
  }
  log.info({ username }, "first super_admin created from ADMIN_USERNAME and ADMIN_PASSWORD");
  return { created: true, username };
}
