import { z } from "zod";
import { ID_MAX } from "./common.js";

/**
 * Webhooks (the contract's "Integrations" section): endpoints that hear of every committed
 * change, signed the Standard Webhooks way. Managers and super_admin manage them.
 */

/** The event types a webhook may subscribe to (or `*` for every one). */
export const WEBHOOK_EVENT_TYPES = [
  "inventory.quantity_changed",
  "product.created",
  "product.updated",
  "product.status_changed",
  "products.imported",
  "product.low_stock",
  "order.created",
  "order.cancelled",
  "webhook.test",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

/** At most this many webhooks (each one's deliveries are written in every change's transaction). */
export const WEBHOOK_MAX = 50;

export const WEBHOOK_MESSAGES = {
  urlScheme: "Webhook URL must start with http:// or https://",
  urlInvalid: "Webhook URL is not a valid URL",
  /** `what` names the kind of address (this computer, a private network, ...), `host` the URL's host. */
  addressRefused: (what: string, host: string) =>
    `Webhook URL may not point at ${what} (${host}). A receiver on the shop's network can be allowed with the server setting WEBHOOK_ALLOWED_HOSTS`,
  metadataRefused: (host: string) => `Webhook URL may not point at a cloud metadata service (${host})`,
  tooMany: `A shop may have at most ${WEBHOOK_MAX} webhooks: delete one before adding another`,
  eventsEmpty: "Choose at least one event, or * for every event",
  notFound: "Webhook not found",
  deliveryNotFound: "Delivery not found",
  disabledAfterFailures: "Disabled after failing for 24 hours",
} as const;

/**
 * Why an attempt failed, as the delivery log says it (`last_error`): our own words, never the
 * receiver's answer or a low-level error text. A non-2xx answer is `HTTP <status>`.
 */
export const WEBHOOK_FAILURES = {
  timeout: "timeout",
  refused: "connection refused",
  reset: "connection reset",
  tls: "TLS error",
  notAllowed: "address not allowed",
  nameNotFound: "name not found",
  nameLookup: "name lookup failed",
  unreachable: "host unreachable",
  badAnswer: "invalid HTTP answer",
  invalidUrl: "invalid URL",
  failed: "connection failed",
} as const;

/**
 * What is wrong with a webhook URL's form, or null: http(s) only. Where it points is the server's
 * to check (modules/webhooks/webhook-targets.ts), with its WEBHOOK_ALLOWED_HOSTS setting.
 */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return WEBHOOK_MESSAGES.urlInvalid;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return WEBHOOK_MESSAGES.urlScheme;
  return null;
}

const urlSchema = z
  .string()
  .trim()
  .min(1, "Webhook URL is required")
  .max(WEBHOOK_URL_MAX, `Webhook URL must be at most ${WEBHOOK_URL_MAX} characters`)
  .superRefine((url, ctx) => {
    const problem = webhookUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const eventsSchema = z
  .array(z.union([z.literal("*"), z.enum(WEBHOOK_EVENT_TYPES)]))
  .min(1, WEBHOOK_MESSAGES.eventsEmpty)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .transform((events) => (events.includes("*") ? ["*"] : [...new Set(events)]));

const descriptionSchema = z
  .string()
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, `Description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`);

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  /** Event types, or `["*"]` for every one. */
  events: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  created_at: z.string(),
  /** Why the webhook is disabled when the server disabled it (an endpoint failing for 24 hours), else null. */
  disabled_reason: z.string().nullable(),
  /** Since when every attempt to this endpoint has failed (null while it answers). */
  failing_since: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const createWebhookBodySchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.optional().default(""),
});
export type CreateWebhookBody = z.input<typeof createWebhookBodySchema>;
/** The body as the server has it after validation (events normalised). */
export type CreateWebhookInput = z.output<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({ url: urlSchema, events: eventsSchema, description: descriptionSchema, enabled: z.boolean() })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "Send at least one of url, events, description, enabled");
export type UpdateWebhookBody = z.input<typeof updateWebhookBodySchema>;
export type UpdateWebhookInput = z.output<typeof updateWebhookBodySchema>;

/** The answer to POST /api/webhooks: the secret (Standard Webhooks form `whsec_<base64>`) is shown this once. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The `webhook-id` header of every attempt of this delivery. */
  message_id: z.string(),
  type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The HTTP status of the last attempt, null when it got no answer. */
  last_status: z.number().int().nullable(),
  /** Why the last attempt failed, in a few words of ours (WEBHOOK_FAILURES, or `HTTP 500`), else null. */
  last_error: z.string().nullable(),
  /** When the next attempt is due (null when none is: done, or waiting for an earlier delivery of the same product). */
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const deliveryListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const deliveryParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(ID_MAX),
  delivery: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The body of every delivery (JSON): `data` per event type, as the contract lists them. */
export interface WebhookPayload {
  type: WebhookEventType;
  /** When the change committed (ISO 8601, UTC). */
  timestamp: string;
  data: Record<string, unknown>;
}
