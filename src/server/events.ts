import { EventEmitter } from "node:events";
import type { InventoryUpdate, LowStockEvent, OrderUpdate, ShowUpdate } from "../contract/events.js";
import type { StockTakeUpdate } from "../contract/stock-takes.js";

/**
 * In-process events that services raise after a commit. The realtime plugin turns them into
 * socket.io broadcasts (and, through the PostgreSQL adapter, into other processes' broadcasts).
 */
export interface ServerEvents {
  inventory_update: [InventoryUpdate];
  /** A show started or ended. */
  show_update: [ShowUpdate];
  /** An order was placed or cancelled. */
  order_update: [OrderUpdate];
  /** A change took a product to or under its reorder point. */
  low_stock: [LowStockEvent];
  /** A stock take started, got scans, finished counting, was approved or cancelled. */
  stock_take_update: [StockTakeUpdate];
  /** A user's sessions were ended (disabled or password reset): drop their live connections. */
  user_revoked: [{ userId: number; reason: "account_disabled" | "password_reset" }];
}

export class EventBus extends EventEmitter<ServerEvents> {}
