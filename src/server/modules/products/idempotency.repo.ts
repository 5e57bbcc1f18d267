import { lt } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { idempotencyKeys } from "../../db/schema.js";

/** Keys are honoured at least 24 hours (docs/decisions/0004). Claimed and answered in apply_quantity_change (migration 0003). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** Forgets keys older than the retention period. */
export async function deleteExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
}
