import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rateLimits } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";

/** Fixed-window counters, one row per key: a hit in an ended window starts a new one. */

export interface WindowCount {
  hits: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

const windowInterval = (windowMs: number) => sql`make_interval(secs => ${windowMs / 1000})`;

/** Counts a hit for the key (in one statement, so concurrent hits are all counted). */
export async function countHit(db: Db, key: string, windowMs: number): Promise<WindowCount> {
  const ended = sql`r.window_started_at <= now() - ${windowInterval(windowMs)}`;
  const result = await db.execute(sql`
    insert into rate_limits as r (key, hits, window_started_at) values (${key}, 1, now())
    on conflict (key) do update set
      hits = case when ${ended} then 1 else r.hits + 1 end,
      window_started_at = case when ${ended} then now() else r.window_started_at end
    returning r.hits, extract(epoch from (r.window_started_at + ${windowInterval(windowMs)} - now())) * 1000 as ttl_ms`);
  const [row] = rowsOf<{ hits: number; ttl_ms: string | number }>(result);
  return { hits: Number(row?.hits ?? 1), ttlMs: Math.max(0, Math.round(Number(row?.ttl_ms ?? windowMs))) };
}

/** The key's hits in its current window (0 when it has none). */
export async function readHits(db: Db, key: string, windowMs: number): Promise<WindowCount> {
  const result = await db.execute(sql`
    select hits, extract(epoch from (window_started_at + ${windowInterval(windowMs)} - now())) * 1000 as ttl_ms
    from rate_limits where key = ${key} and window_started_at > now() - ${windowInterval(windowMs)}`);
  const [row] = rowsOf<{ hits: number; ttl_ms: string | number }>(result);
  return row ? { hits: Number(row.hits), ttlMs: Math.max(0, Math.round(Number(row.ttl_ms))) } : { hits: 0, ttlMs: 0 };
}

/** Takes one hit back (an attempt that turned out not to count). */
export async function uncountHit(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .where(eq(rateLimits.key, key));
}

export async function deleteEndedWindows(db: Db, windowMs: number): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_started_at < now() - ${windowInterval(windowMs)}`);
}
