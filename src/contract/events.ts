// No zod here: the client's first screen imports this module.
import type { Order } from "./orders.js";
import type { Role } from "./permissions.js";
import type { Product } from "./products.js";
import type { ShowEventType } from "./show-rules.js";
import type { Show } from "./shows.js";
import type { StockTakeUpdate } from "./stock-takes.js";

export interface OnlineUser {
  username: string;
  role: Role;
}

export const INVENTORY_EVENT_TYPES = [
  "product_created",
  "product_updated",
  "quantity_changed",
  "status_changed",
  "products_imported",
] as const;
export type InventoryEventType = (typeof INVENTORY_EVENT_TYPES)[number];

export interface InventoryEventData {
  id?: number;
  product_name?: string;
  updated_by: string;
  quantity_change?: number;
  quantity_on_hand?: number;
  is_active?: boolean;
  count?: number;
  /** The whole committed product, exactly as the HTTP answer returns it (every type but products_imported). */
  product?: Product;
  /** products_imported: the catalogue revision after the import. */
  revision?: number;
  /** The `Idempotency-Key` of the request that made the change, when it had one. */
  idempotency_key?: string;
}

export interface InventoryUpdate {
  type: InventoryEventType;
  data: InventoryEventData;
  timestamp: string;
  userId: number;
}

/** The live event `show_update`: a show started or ended (after the commit). */
export interface ShowUpdate {
  type: ShowEventType;
  show: Show;
  timestamp: string;
  userId: number;
  username: string;
}

/**
 * The live event `order_update`: an order was placed or cancelled (after the commit); sent only to
 * users who may list orders (managers and super administrators), like every event to those who
 * may read it through the API (server/modules/realtime/audience.ts).
 */
export interface OrderUpdate {
  type: "order_created" | "order_cancelled";
  order: Order;
  timestamp: string;
  userId: number;
}

/**
 * The live event `low_stock`: a change took a product to or under its reorder point (after the
 * commit); sent to managers and super administrators.
 */
export interface LowStockEvent {
  product: Product;
  timestamp: string;
  userId: number;
  username: string;
}

export type AuthErrorReason = "invalid_token" | "expired_token" | "account_disabled";

export interface ServerToClientEvents {
  authenticated: (payload: { user: { id: number; username: string; role: Role } }) => void;
  auth_error: (payload: { message: string; reason: AuthErrorReason }) => void;
  user_count: (payload: { count: number; users: OnlineUser[] }) => void;
  inventory_update: (payload: InventoryUpdate) => void;
  /** A show started or ended. */
  show_update: (payload: ShowUpdate) => void;
  /** An order was placed or cancelled (managers and super administrators only). */
  order_update: (payload: OrderUpdate) => void;
  /** A product reached its reorder point (managers and super administrators only). */
  low_stock: (payload: LowStockEvent) => void;
  /** A stock take started, got scans, finished counting, was approved or cancelled (those who may count). */
  stock_take_update: (payload: StockTakeUpdate) => void;
}

export interface ClientToServerEvents {
  authenticate: (payload: { token: string }) => void;
}

export const SOCKET_AUTH_TIMEOUT_MS = 10_000;
export const SOCKET_TOKEN_TTL_MS = 60_000;
