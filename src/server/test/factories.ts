import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Role } from "../../contract/permissions.js";
import type { Db } from "../db/client.js";
import { users } from "../db/schema.js";
import { hashPassword } from "../modules/users/passwords.js";

export const TEST_PASSWORD = "correct-horse-battery";

/**
 * One argon2id hash of TEST_PASSWORD per test file, shared by the users it makes: a hash costs
 * tens of milliseconds of CPU by design, and a run makes hundreds of users. Sign-ins still verify it.
 */
let testPasswordHash: Promise<string> | undefined;
function passwordHashFor(password: string): Promise<string> {
  if (password !== TEST_PASSWORD) return hashPassword(password);
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  return testPasswordHash;
}

export function uniqueName(prefix = "user"): string {
  return `${prefix}_${randomBytes(4).toString("hex")}`;
}

/** Inserts a user directly (bypassing the API) for arranging a test. */
export async function createUser(db: Db, opts: { role?: Role; username?: string; password?: string; isActive?: boolean } = {}) {
  const [row] = await db
    .insert(users)
    .values({
      username: opts.username ?? uniqueName(opts.role ?? "user"),
      passwordHash: await passwordHashFor(opts.password ?? TEST_PASSWORD),
      role: opts.role ?? "streamer",
      isActive: opts.isActive ?? true,
    })
    .returning();
  if (!row) throw new Error("user insert returned nothing");
  return row;
}

/** Signs in through the real login route and returns the Cookie header to send. */
export async function loginAs(app: FastifyInstance, username: string, password = TEST_PASSWORD): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login as ${username} failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === "blez_session");
  if (!cookie) throw new Error("login set no session cookie");
  return `${cookie.name}=${cookie.value}`;
}

/** A signed-in user of the given role: its row and the Cookie header. */
export async function signedIn(app: FastifyInstance, role: Role) {
  const user = await createUser(app.db, { role });
  return { user, cookie: await loginAs(app, user.username) };
}
