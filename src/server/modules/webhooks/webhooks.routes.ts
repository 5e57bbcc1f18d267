import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  deliveryListQuerySchema,
  deliveryParamsSchema,
  updateWebhookBodySchema,
  WEBHOOK_MAX,
  webhookDeliverySchema,
  webhookSchema,
} from "../../../contract/webhooks.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestDelivery,
  updateWebhook,
  type WebhookContext,
} from "./webhooks.service.js";

const tags = ["webhooks"];
const security = [{ session: [] }];
/** Managers and super_admin (checked again in the service). */
const config = { permission: "canManageUsers" } as const;

const TARGET_RULES =
  "An http(s) URL. One naming an address on this computer, a private network (RFC 1918), carrier-grade NAT " +
  "(100.64.0.0/10), unique-local (fc00::/7), link-local, unspecified or a cloud metadata service (also as an " +
  "IPv4-mapped IPv6 address), or a metadata service's name, is refused with 400 unless the server setting " +
  "`WEBHOOK_ALLOWED_HOSTS` (host names and CIDR ranges) allows it; a name resolving to such an address fails " +
  "each attempt with `address not allowed`.";
const DELIVERY_RULES =
  "A delivery is a POST of `{type, timestamp, data}` (JSON) with the Standard Webhooks headers `webhook-id`, " +
  '`webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed ' +
  "with the secret's decoded bytes). A 2xx answer within 10 s is success (its body is not read); anything else is tried again with the " +
  "same `webhook-id` after about 5 s, 30 s, 2 min, 10 min, 1 h, then hourly, for 24 hours, then the delivery has " +
  "failed. An endpoint failing for 24 hours is disabled. Deliveries are written in the transaction of the change " +
  "they report; one product's go out in commit order. The log's `last_error` is a short reason: `timeout`, " +
  "`connection refused`, `connection reset`, `TLS error`, `address not allowed`, `name not found`, `HTTP 500`, ...";

export async function webhooksRoutes(app: ZodApp): Promise<void> {
  const context = (request: FastifyRequest): WebhookContext => ({ ...serviceContext(app, request), worker: app.webhookWorker });

  app.post(
    "/webhooks",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Add a webhook endpoint; the answer holds its secret, shown this once",
        description: `${TARGET_RULES} At most ${WEBHOOK_MAX} webhooks (409 beyond). ${DELIVERY_RULES}`,
        body: createWebhookBodySchema,
        response: { 201: createdWebhookSchema, ...errorAnswers(400, 401, 403, 409, 413, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createWebhook(context(request), request.body)),
  );

  app.get(
    "/webhooks",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Webhook endpoints (never their secrets)",
        response: { 200: z.array(webhookSchema), ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => listWebhooks(serviceContext(app, request)),
  );

  app.put(
    "/webhooks/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Change a webhook's url, events, description, or enable/disable it",
        description: TARGET_RULES,
        params: idParamsSchema,
        body: updateWebhookBodySchema,
        response: { 200: webhookSchema, ...errorAnswers(400, 401, 403, 404, 413, 503) },
      },
    },
    async (request) => updateWebhook(context(request), request.params.id, request.body),
  );

  app.delete(
    "/webhooks/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete a webhook and its delivery log",
        params: idParamsSchema,
        response: { 204: z.null(), ...errorAnswers(401, 403, 404, 503) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(serviceContext(app, request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/webhooks/:id/test",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Send a `webhook.test` delivery to the endpoint",
        params: idParamsSchema,
        response: { 202: webhookDeliverySchema, ...errorAnswers(401, 403, 404, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await sendTestDelivery(context(request), request.params.id)),
  );

  app.get(
    "/webhooks/:id/deliveries",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A webhook's delivery log, newest first",
        description: DELIVERY_RULES,
        params: idParamsSchema,
        querystring: deliveryListQuerySchema,
        response: { 200: z.array(webhookDeliverySchema), ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request) => listDeliveries(serviceContext(app, request), request.params.id, request.query),
  );

  app.post(
    "/webhooks/:id/deliveries/:delivery/retry",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Send a delivery again now, with the same webhook-id",
        params: deliveryParamsSchema,
        response: { 202: webhookDeliverySchema, ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await retryDelivery(context(request), request.params.id, request.params.delivery)),
  );
}
