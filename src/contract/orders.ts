import { z } from "zod";
import { ID_MAX } from "./common.js";
import { paymentSchema } from "./counter.js";
import {
  ORDER_CHANNEL_MAX,
  ORDER_EXTERNAL_ID_MAX,
  ORDER_LINES_MAX,
  ORDER_MESSAGES,
  ORDER_NOTE_MAX,
  ORDER_PAYMENTS_MAX,
  ORDER_STATUSES,
  ORDERS_LIMIT_DEFAULT,
  ORDERS_LIMIT_MAX,
} from "./order-rules.js";
import { BARCODE_MAX, MONEY_MAX_CENTS, QUANTITY_MAX_EXCLUSIVE } from "./rules.js";

/** Printable text: no control characters. */
const PRINTABLE = /^[^\p{Cc}]*$/u;
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(PRINTABLE, `${label} must be printable text`);

export const orderStatusSchema = z.enum(ORDER_STATUSES);

/** A sales channel's name (`ebay`, `web`, `counter`): compared exactly. */
export const orderChannelSchema = text("Channel", ORDER_CHANNEL_MAX);

export const orderLineInputSchema = z
  .object({
    barcode: text("Barcode", BARCODE_MAX).optional(),
    product_id: z.number().int().positive().max(ID_MAX).optional(),
    quantity: z
      .number({ error: "Quantity must be a whole number of 1 or more" })
      .int("Quantity must be a whole number of 1 or more")
      .min(1, "Quantity must be a whole number of 1 or more")
      .lt(QUANTITY_MAX_EXCLUSIVE, "Quantity is too large"),
    /** Whole cents of the shop's currency. */
    unit_price: z.number().int().min(0).max(MONEY_MAX_CENTS).nullable().optional(),
  })
  .refine((l) => l.barcode !== undefined || l.product_id !== undefined, { message: ORDER_MESSAGES.lineProduct });

export const createOrderBodySchema = z.object({
  channel: orderChannelSchema,
  external_id: text("External id", ORDER_EXTERNAL_ID_MAX),
  lines: z.array(orderLineInputSchema).min(1, "An order needs at least one line").max(ORDER_LINES_MAX, `At most ${ORDER_LINES_MAX} lines`),
  note: z.string().trim().max(ORDER_NOTE_MAX).optional(),
  /** The customer buying (a counter sale); needed to pay with store credit. */
  customer_id: z.number().int().positive().max(ID_MAX).optional(),
  /** How it was paid, adding up to the order's total; the credit part comes off the customer's balance in the order's transaction. */
  payments: z.array(paymentSchema).min(1).max(ORDER_PAYMENTS_MAX).optional(),
});
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;

export const orderLineSchema = z.object({
  product_id: z.number().int().nullable(),
  barcode: z.string(),
  product_name: z.string(),
  quantity: z.number().int(),
  unit_price: z.number().int().nullable(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderSchema = z.object({
  id: z.number().int(),
  channel: z.string(),
  external_id: z.string(),
  status: orderStatusSchema,
  lines: z.array(orderLineSchema),
  /** Sum of the priced lines in cents; null when no line has a price. */
  total: z.number().int().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  /** Username, or `token:<name>` for an order placed with an API token. */
  created_by: z.string(),
  cancelled_at: z.string().nullable(),
  cancelled_by: z.string().nullable(),
  /** A counter sale's customer and payments: in the answers of POST /orders and GET /orders/{id}, never in events or webhooks. */
  customer_id: z.number().int().nullable().optional(),
  payments: z.array(paymentSchema).optional(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderAnswerSchema = z.object({ order: orderSchema });

/** A line that fails an order (409/404): every failing line is named. */
export const failedLineSchema = z.object({
  /** The line's position in the request (0-based). */
  index: z.number().int(),
  barcode: z.string().nullable(),
  requested: z.number().int(),
  /** Stock the product has (0 when it is disabled or unknown). */
  available: z.number().int(),
});
export type FailedLine = z.infer<typeof failedLineSchema>;
export const orderRefusedSchema = z.object({ error: z.string(), lines: z.array(failedLineSchema) });

const day = z.iso.date();
const instant = z.iso.datetime({ offset: true });
export const ordersQuerySchema = z.object({
  channel: z.string().trim().min(1).max(ORDER_CHANNEL_MAX).optional(),
  status: orderStatusSchema.optional(),
  /** An ISO timestamp, or a day (YYYY-MM-DD, UTC) counted from its start. */
  from: z.union([instant, day]).optional(),
  /** An ISO timestamp, or a day (YYYY-MM-DD, UTC) counted to its end. */
  to: z.union([instant, day]).optional(),
  limit: z.coerce.number().int().min(1).max(ORDERS_LIMIT_MAX).default(ORDERS_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type OrdersQuery = z.input<typeof ordersQuerySchema>;
