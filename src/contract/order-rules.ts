// Orders: limits, reasons and messages (no zod: the client's orders screen uses them).

export const ORDER_STATUSES = ["completed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_CHANNEL_MAX = 50;
export const ORDER_EXTERNAL_ID_MAX = 200;
export const ORDER_NOTE_MAX = 1000;
export const ORDER_LINES_MAX = 200;
export const ORDER_PAYMENTS_MAX = 10;
export const ORDERS_LIMIT_DEFAULT = 50;
export const ORDERS_LIMIT_MAX = 200;

/** The quantity audit reason of an order's lines. */
export const orderReason = (channel: string, externalId: string) => `Order ${channel} ${externalId}`;
/** The quantity audit reason of a cancelled order's restock. */
export const ORDER_CANCELLED_REASON = "Order cancelled";

export const ORDER_MESSAGES = {
  notFound: "Order not found",
  alreadyCancelled: "This order was already cancelled",
  refused: (n: number) => `Order refused: ${n} ${n === 1 ? "line" : "lines"} cannot be filled`,
  unknownProduct: (n: number) => `Order refused: ${n} ${n === 1 ? "line names" : "lines name"} an unknown product`,
  differentLines: "An order with this channel and external id exists with different lines",
  cannotRestock: (n: number) => `Cannot cancel: ${n} ${n === 1 ? "line's product is" : "lines' products are"} disabled or missing`,
  lineProduct: "Each line needs a barcode or a product_id",
  channelNotAllowed: (channels: readonly string[]) =>
    `This API token places, cancels and reads orders only in ${channels.length === 1 ? "the channel" : "the channels"} ${channels.join(", ")}`,
} as const;
