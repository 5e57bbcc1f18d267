import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";

/**
 * The first super_admin: when the users table is empty, create ADMIN_USERNAME with
 * ADMIN_PASSWORD, or a generated password printed once. Returns the generated password, if any.
 */
export async function ensureFirstAdmin(_db: Db, _config: Config, _log: Pick<FastifyBaseLogger, "info" | "warn">): Promise<void> {}
