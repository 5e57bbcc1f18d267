import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import { createOrderBodySchema, orderAnswerSchema, orderRefusedSchema, orderSchema, ordersQuerySchema } from "../../../contract/orders.js";
import { describedError, errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { cancelOrder, getOrder, listOrders, placeOrder } from "./orders.service.js";

const tags = ["orders"];
const security = SESSION_OR_TOKEN;
/** Users who may manage products place orders (streamers sell by tapping); a token needs orders:write. */
const place = { permission: "canManageProducts", scope: "orders:write" } as const;
/** Listing and cancelling: managers and super_admin; a token with orders:write. */
const manage = { permission: "canManageIntegrations", scope: "orders:write" } as const;

const ORDER_RULES =
  "All lines apply in one transaction or none do: a line whose product lacks the stock or is disabled refuses the " +
  "whole order with 409, an unknown product with 404, each `{error, lines: [{index, barcode, requested, available}]}` " +
  "naming every failing line. The same `channel` + `external_id` again answers 200 with the existing order (nothing " +
  "applied twice) when the lines are the same, 422 when they differ. Each line writes a quantity audit entry with " +
  "the reason `Order <channel> <external_id>` and the order's id, and the usual live `inventory_update`. " +
  "`unit_price` and `total` are cents (null when not given). A counter sale may name `customer_id` and `payments` " +
  "(`[{method: cash|card|credit, amount}]`, adding up to the total, 400 otherwise): the credit part comes off the customer's " +
  "store credit in the order's transaction (409 with the `balance` when short: nothing applied), goes back when the order is " +
  "cancelled, and the answers of this call and `GET /orders/{id}` carry them (never events or webhooks); naming a customer " +
  "with a token needs `trade_ins:write` too.";
const WHO =
  "Inventory users, managers and super_admin place orders (streamers sell by tapping: 403); managers and " +
  "super_admin list, read and cancel them. A token with `orders:write` does all four while its maker is a manager " +
  "or super_admin; a token limited to channels places, cancels and reads only orders of those channels (403 " +
  "otherwise) and lists only theirs.";

/** Orders: a sale on any channel as one atomic, idempotent record (src/contract/orders.ts). */
export async function ordersRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/orders",
    {
      config: place,
      schema: {
        tags,
        security,
        summary: "Place an order: every line or none; idempotent on channel + external_id",
        description: `${ORDER_RULES} ${WHO}`,
        body: createOrderBodySchema,
        response: {
          200: orderAnswerSchema,
          201: orderAnswerSchema,
          ...errorAnswers(400, 401, 403, 413, 422, 429, 503),
          404: describedError(404, orderRefusedSchema.partial({ lines: true })),
          409: describedError(
            409,
            orderRefusedSchema.partial({ lines: true }).extend({
              /** The customer's store credit balance, when the credit payment was short. */
              balance: z.number().int().optional(),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { order, created } = await placeOrder(serviceContext(app, request), request.body);
      return reply.code(created ? 201 : 200).send({ order });
    },
  );

  app.get(
    "/orders",
    {
      config: manage,
      schema: {
        tags,
        security,
        summary: "Orders newest first, by channel, status and time (from/to: ISO timestamps or days)",
        description: WHO,
        querystring: ordersQuerySchema,
        response: { 200: z.array(orderSchema), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => listOrders(serviceContext(app, request), request.query),
  );

  app.get(
    "/orders/:id",
    {
      config: manage,
      schema: {
        tags,
        security,
        summary: "One order with its lines",
        description: WHO,
        params: idParamsSchema,
        response: { 200: orderAnswerSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => ({ order: await getOrder(serviceContext(app, request), request.params.id) }),
  );

  app.post(
    "/orders/:id/cancel",
    {
      config: manage,
      schema: {
        tags,
        security,
        summary: "Cancel an order: every line's stock goes back (reason `Order cancelled`); 409 when cancelled already",
        description: WHO,
        params: idParamsSchema,
        response: {
          200: orderAnswerSchema,
          ...errorAnswers(400, 401, 403, 404, 429, 503),
          409: describedError(409, orderRefusedSchema.partial({ lines: true })),
        },
      },
    },
    async (request) => ({ order: await cancelOrder(serviceContext(app, request), request.params.id) }),
  );
}
