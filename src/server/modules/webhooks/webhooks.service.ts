import {
  type CreatedWebhook,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  WEBHOOK_MAX,
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookDelivery,
} from "../../../contract/webhooks.js";
import { badRequest, conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import { newWebhookSecret } from "./webhook-signature.js";
import type { WebhookWorker } from "./webhook-worker.js";
import {
  type DeliveryRow,
  deleteWebhookRow,
  findWebhook,
  insertTestDelivery,
  insertWebhook,
  listDeliveryRows,
  listWebhookRows,
  retryDeliveryRow,
  updateWebhookRow,
  type WebhookRow,
} from "./webhooks.repo.js";

/** Managers and super_admin manage webhooks: the ones who manage users (contract/permissions.ts). */
const PERMISSION = "canManageUsers" as const;

/** What the webhook services need besides the request's context: the worker to wake. */
export interface WebhookContext extends ServiceContext {
  worker: WebhookWorker;
}

/** The API shape of a webhook: never its secret. */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    disabled_reason: row.disabledReason,
    failing_since: row.failingSince ? row.failingSince.toISOString() : null,
  };
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    message_id: row.messageId,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_at: row.status === "pending" && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

async function existing(ctx: ServiceContext, id: number): Promise<WebhookRow> {
  const row = await findWebhook(ctx.db, id);
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

/** 400 when the URL names an address or a name webhooks may not point at (webhook-targets.ts). */
function checkTarget(ctx: WebhookContext, url: string): void {
  const problem = ctx.worker.targets.urlProblem(url);
  if (problem) throw badRequest(problem);
}

/** Adds an endpoint (at most WEBHOOK_MAX); the answer carries its secret, shown this once. */
export async function createWebhook(ctx: WebhookContext, body: CreateWebhookInput): Promise<CreatedWebhook> {
  requirePermission(ctx, PERMISSION);
  checkTarget(ctx, body.url);
  const secret = newWebhookSecret();
  const row = await insertWebhook(
    ctx.db,
    { url: body.url, events: body.events, description: body.description, secret, createdBy: ctx.actor.id },
    WEBHOOK_MAX,
  );
  if (!row) throw conflict(WEBHOOK_MESSAGES.tooMany);
  ctx.worker.nudge(true);
  return { webhook: toWebhook(row), secret };
}

export async function listWebhooks(ctx: ServiceContext): Promise<Webhook[]> {
  requirePermission(ctx, PERMISSION);
  return (await listWebhookRows(ctx.db)).map(toWebhook);
}

export async function updateWebhook(ctx: WebhookContext, id: number, body: UpdateWebhookInput): Promise<Webhook> {
  requirePermission(ctx, PERMISSION);
  if (body.url !== undefined) checkTarget(ctx, body.url);
  const row = await updateWebhookRow(ctx.db, id, body);
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  if (row.enabled) ctx.worker.nudge(true);
  return toWebhook(row);
}

export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  requirePermission(ctx, PERMISSION);
  if (!(await deleteWebhookRow(ctx.db, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
}

/** A `webhook.test` delivery to this endpoint (sent even while it is disabled, whatever its event filter). */
export async function sendTestDelivery(ctx: WebhookContext, id: number): Promise<WebhookDelivery> {
  requirePermission(ctx, PERMISSION);
  const webhook = await existing(ctx, id);
  const row = await insertTestDelivery(ctx.db, webhook, {
    webhook_id: webhook.id,
    message: "A test delivery from Blez Inventory",
    sent_by: ctx.actor.username,
  });
  ctx.worker.nudge(true);
  return toDelivery(row);
}

export async function listDeliveries(ctx: ServiceContext, id: number, page: { limit: number; offset: number }): Promise<WebhookDelivery[]> {
  requirePermission(ctx, PERMISSION);
  const webhook = await existing(ctx, id);
  return (await listDeliveryRows(ctx.db, webhook.id, page.limit, page.offset)).map(toDelivery);
}

/** Sends a delivery again now, with the same webhook-id. */
export async function retryDelivery(ctx: WebhookContext, id: number, deliveryId: number): Promise<WebhookDelivery> {
  requirePermission(ctx, PERMISSION);
  const row = await retryDeliveryRow(ctx.db, id, deliveryId);
  if (!row) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  ctx.worker.nudge(true);
  return toDelivery(row);
}
