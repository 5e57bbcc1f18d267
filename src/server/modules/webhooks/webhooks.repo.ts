import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { webhookDeliveries, webhooks } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { withTransaction } from "../../db/tx.js";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * Adds a webhook unless there are `max` already (then undefined). The count and the insert are one
 * transaction under a lock that only webhook inserts take against each other (SHARE ROW EXCLUSIVE
 * conflicts with itself, not with the triggers' reads), so concurrent adds never pass the cap.
 */
export async function insertWebhook(
  db: Db,
  values: { url: string; events: string[]; description: string; secret: string; createdBy: number },
  max: number,
): Promise<WebhookRow | undefined> {
  return withTransaction(db, async (tx) => {
    await tx.execute(sql`lock table webhooks in share row exclusive mode`);
    const [count] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from webhooks`));
    if (Number(count?.n ?? 0) >= max) return undefined;
    const [row] = await tx.insert(webhooks).values(values).returning();
    if (!row) throw new Error("insert into webhooks returned no row");
    return row;
  });
}

export function listWebhookRows(db: Db): Promise<WebhookRow[]> {
  return db.select().from(webhooks).orderBy(desc(webhooks.id));
}

export async function findWebhook(db: Db, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
  return row;
}

/** Changes a webhook; enabling it again clears why it was disabled and its failure streak. */
export async function updateWebhookRow(
  db: Db,
  id: number,
  changes: Partial<Pick<WebhookRow, "url" | "events" | "description" | "enabled">>,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({
      ...changes,
      ...(changes.enabled === true ? { disabledReason: null, failingSince: null } : {}),
      ...(changes.enabled === false ? { disabledReason: null } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(webhooks.id, id))
    .returning();
  return row;
}

/**
 * Deletes a webhook and its delivery log, in one transaction. (A change committing at that moment
 * may still write a delivery for it: never sent, since a claim needs the webhook's row.) Rows are
 * locked in record_webhook_attempt()'s order, deliveries by id and then the webhook, so a deletion
 * beside an attempt being recorded waits for it instead of deadlocking with it on PostgreSQL.
 */
export async function deleteWebhookRow(db: Db, id: number): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    await tx.execute(sql`select 1 from webhook_deliveries where webhook_id = ${id}::int order by id for update`);
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    const rows = await tx.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
    return rows.length > 0;
  });
}

/**
 * Any event for code that writes no audit row (orders): call it in the change's transaction, as
 * the triggers of migration 0013 do. Answers how many deliveries it wrote (one per subscribed webhook).
 */
export async function enqueueWebhookEvent(
  tx: Db,
  type: string,
  data: Record<string, unknown>,
  productId: number | null = null,
): Promise<number> {
  const [row] = rowsOf<{ written: number }>(
    await tx.execute(sql`select enqueue_webhook_event(${type}::text, ${productId}::int, ${JSON.stringify(data)}::text::json) as written`),
  );
  return Number(row?.written ?? 0);
}

/** A `webhook.test` delivery to one webhook, whatever its event filter. */
export async function insertTestDelivery(db: Db, webhook: WebhookRow, data: Record<string, unknown>): Promise<DeliveryRow> {
  const [next] = rowsOf<{ id: string | number }>(await db.execute(sql`select nextval('webhook_deliveries_id_seq') as id`));
  const id = Number(next?.id);
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ id, messageId: `msg_${webhook.messagePrefix}_${id}`, webhookId: webhook.id, type: "webhook.test", data })
    .returning();
  if (!row) throw new Error("insert into webhook_deliveries returned no row");
  return row;
}

export function listDeliveryRows(db: Db, webhookId: number, limit: number, offset: number): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit)
    .offset(offset);
}

/** Sends a delivery again at once, with the same webhook-id (a failed one gets one more attempt). */
export async function retryDeliveryRow(db: Db, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: sql`now()`, finishedAt: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, webhookId)))
    .returning();
  return row;
}

/** How long the delivery log keeps a finished delivery (and one left behind by a deleted webhook). */
export const DELIVERY_LOG_DAYS = 30;

/**
 * Deletes up to `limit` deliveries made more than `keepDays` days ago that are finished (succeeded
 * or failed) or whose webhook is gone; answers how many. Without it the outbox grows by every
 * change for good (a shop's year of taps to one webhook: some 3.6 million rows). Deliveries waiting
 * behind a disabled webhook stay. The old rows are found from the first id on, and only below the
 * first id made within the period, so a call reads about what it deletes, not the whole log.
 */
export async function deleteOldDeliveries(db: Db, keepDays: number, limit: number): Promise<number> {
  const rows = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      with recent as (
        select coalesce(
          (select d.id from webhook_deliveries d
            where d.created_at >= now() - make_interval(days => ${keepDays}::int) order by d.id limit 1),
          (select max(d.id) + 1 from webhook_deliveries d)) as first_id
      ), old as (
        select d.id from webhook_deliveries d, recent
        where d.id < recent.first_id
          and (d.status <> 'pending' or not exists (select 1 from webhooks w where w.id = d.webhook_id))
        order by d.id
        limit ${limit}::int
      )
      delete from webhook_deliveries d using old where d.id = old.id
      returning d.id`),
  );
  return rows.length;
}

/** Is there any webhook at all? (With none, the worker does not look for deliveries on every change.) */
export async function anyWebhook(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ any: boolean }>(await db.execute(sql`select exists (select 1 from webhooks) as any`));
  return row?.any === true;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  messageId: string;
  type: string;
  productId: number | null;
  data: unknown;
  attempts: number;
  createdAt: string;
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries for one attempt each: rows locked with FOR UPDATE SKIP
 * LOCKED, so two processes never take the same one, and leased for `leaseMs` (a process that
 * dies mid-attempt leaves it to another once the lease runs out). Disabled webhooks' deliveries
 * wait, but a test is sent anyway.
 */
export async function claimDeliveries(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const rows = rowsOf<{
    id: string | number;
    webhook_id: number;
    message_id: string;
    type: string;
    product_id: number | null;
    data: unknown;
    attempts: number;
    created_at: string;
    url: string;
    secret: string;
  }>(
    await db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at is not null and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until < now())
          and exists (select 1 from webhooks w where w.id = d.webhook_id and (w.enabled or d.type = 'webhook.test'))
        order by d.next_attempt_at, d.id
        limit ${limit}::int
        for update of d skip locked
      )
      update webhook_deliveries d
        set lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000}), attempts = d.attempts + 1
      from due, webhooks w
      where d.id = due.id and w.id = d.webhook_id
      returning d.id, d.webhook_id, d.message_id, d.type, d.product_id, d.data, d.attempts,
        to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, w.url, w.secret`),
  );
  return rows
    .map((r) => ({
      id: Number(r.id),
      webhookId: r.webhook_id,
      messageId: r.message_id,
      type: r.type,
      productId: r.product_id,
      data: r.data,
      attempts: r.attempts,
      createdAt: r.created_at,
      url: r.url,
      secret: r.secret,
    }))
    .sort((a, b) => a.id - b.id);
}

/** Gives a claimed delivery back untried (this process is stopping): due again at once, the attempt not counted. */
export async function releaseDelivery(db: Db, id: number): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set lease_until = null, attempts = greatest(attempts - 1, 0)
    where id = ${id}::bigint and status = 'pending'`);
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** When failed: wait this long before the next attempt... */
  retryInMs: number;
  /** ...unless the delivery is older than this: then it has failed (and an endpoint failing this long is disabled). */
  giveUpMs: number;
  disabledReason: string;
}

/** Records an attempt with record_webhook_attempt() (migration 0013): one statement, so one short transaction. */
export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<"succeeded" | "pending" | "failed"> {
  const [row] = rowsOf<{ outcome: "succeeded" | "pending" | "failed" }>(
    await db.execute(sql`
      select record_webhook_attempt(${delivery.id}::bigint, ${delivery.webhookId}::int, ${delivery.productId}::int,
        ${outcome.ok}::boolean, ${outcome.status}::int, ${outcome.error}::text, ${outcome.retryInMs / 1000}::float8,
        ${outcome.giveUpMs / 1000}::float8, ${outcome.disabledReason}::text) as outcome`),
  );
  return row?.outcome ?? "failed";
}
